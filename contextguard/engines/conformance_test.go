package engines

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// conformance is the Engine contract as named cases, run by every engine
// (runConformance): the built-in one, in-process ones, external ones and a
// broken one behind its Guard.
var conformance = []struct {
	name  string
	check func(t *testing.T, e Engine)
}{
	{"info names the engine", func(t *testing.T, e Engine) {
		if info, err := e.Info(context.Background()); err != nil || info.Name == "" {
			t.Errorf("Info = %+v, %v", info, err)
		}
	}},
	{"bootstrap, ingest and afterTurn accept a session", func(t *testing.T, e Engine) {
		for _, m := range []Method{MethodBootstrap, MethodIngest, MethodAfterTurn} {
			if _, err := callMethod(context.Background(), e, m); err != nil {
				t.Errorf("%s: %v", m, err)
			}
		}
	}},
	{"assemble keeps its contract", func(t *testing.T, e Engine) {
		msgs := transcript()
		for name, req := range map[string][]agent.Message{
			"a prompt": msgs[4:], "a session": msgs, "a tool loop": msgs[:3],
			"unicode": {user("naïve \u2028 line\nbreak 🦀 \"quoted\" <html>")},
		} {
			r := AssembleRequest{Session: session, Model: Model{Provider: "p", ID: "m", ContextWindow: 8192}, Messages: req, TokenBudget: 4096}
			res, err := e.Assemble(context.Background(), r)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if err := checkAssemble(r, res); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}},
	{"compact keeps its contract", func(t *testing.T, e Engine) {
		for _, reason := range []CompactReason{CompactManual, CompactThreshold, CompactOverflow, CompactTimeout} {
			r := CompactRequest{Session: session, Reason: reason, Instructions: "keep the file names", Messages: transcript()}
			res, err := e.Compact(context.Background(), r)
			if err != nil {
				t.Errorf("%s: %v", reason, err)
				continue
			}
			if err := checkCompact(r, res); err != nil {
				t.Errorf("%s: %v", reason, err)
			}
		}
	}},
	{"calls may run concurrently", func(t *testing.T, e Engine) {
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for i := range 8 {
			wg.Go(func() {
				r := AssembleRequest{Session: Session{ID: fmt.Sprintf("s%d", i)}, Messages: transcript()}
				res, err := e.Assemble(context.Background(), r)
				if err == nil {
					err = checkAssemble(r, res)
				}
				if err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
	}},
}

// runConformance checks every case of the contract on a fresh engine from
// newEngine.
func runConformance(t *testing.T, newEngine func(t *testing.T) Engine) {
	for _, c := range conformance {
		t.Run(c.name, func(t *testing.T) { c.check(t, newEngine(t)) })
	}
}

func TestConformance(t *testing.T) {
	external := func(cfg ExternalConfig) func(t *testing.T) Engine {
		return func(t *testing.T) Engine {
			e := NewExternal(cfg)
			t.Cleanup(func() { e.Close() })
			return e
		}
	}
	echoCfg, _ := helperConfig(t, "echo")
	subjects := []struct {
		name      string
		newEngine func(t *testing.T) Engine
	}{
		{"legacy", func(*testing.T) Engine { return testLegacy() }},
		{"legacy behind its guard", func(*testing.T) Engine {
			return NewGuard(LegacyName, testLegacy(), nil, GuardOptions{})
		}},
		{"in-process", func(t *testing.T) Engine { return newFake(t, nil) }},
		{"external", external(echoCfg)},
		{"a garbage engine behind its guard", func(t *testing.T) Engine {
			e := external(ExternalConfig{Name: "junk", Command: []string{"sh", "-c", "while read -r l; do echo junk; done"}})(t)
			return NewGuard("junk", e, testLegacy(), GuardOptions{Timeout: startLimit})
		}},
		{"a panicking engine behind its guard", func(t *testing.T) Engine {
			f := newFake(t, map[Method]mode{MethodInfo: panics, MethodAssemble: panics, MethodCompact: panics})
			return NewGuard(fakeMark, f, testLegacy(), GuardOptions{})
		}},
	}
	for _, s := range subjects {
		t.Run(s.name, func(t *testing.T) { runConformance(t, s.newEngine) })
	}
}
