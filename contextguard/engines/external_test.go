package engines

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sync"
	"testing"
	"time"
)

// answerBound is how long a guarded call on a broken engine may take: the
// issue's "answers on legacy within seconds", with room for a loaded
// machine — nowhere near the hanging engine's 600 s.
const answerBound = 30 * time.Second

// testLimit is the time limit of the hanging engine's guard: the issue's
// `timeoutSeconds: 2`, shortened to keep the suite fast. The other engines
// get startLimit, as starting a program (a -race test binary, python3) on a
// busy machine can take longer than that.
const (
	testLimit  = 300 * time.Millisecond
	startLimit = 30 * time.Second
)

func TestExternalSpeaksTheProtocol(t *testing.T) {
	ctx := context.Background()
	cfg, stderr := helperConfig(t, "echo")
	cfg.Dir = t.TempDir()
	e := NewExternal(cfg)
	t.Cleanup(func() { e.Close() })

	if n := stderr.count("helper started"); n != 0 {
		t.Fatalf("the engine started before its first use (%d)", n)
	}
	info, err := e.Info(ctx)
	if want := (Info{Name: "helper", Version: "helper-1"}); err != nil || info != want {
		t.Fatalf("Info = %+v, %v; want %+v", info, err, want)
	}
	if line := stderr.await(t, "helper started"); line != "helper started in "+cfg.Dir {
		t.Errorf("stderr %q: want it started in %s", line, cfg.Dir)
	}

	msgs := transcript()
	res, err := e.Assemble(ctx, AssembleRequest{Session: session, SystemPrompt: "sp", Messages: msgs})
	if err != nil || res.SystemPromptAddition != "sp" || !reflect.DeepEqual(res.Messages, msgs) {
		t.Errorf("Assemble = %+v, %v; want the messages back", res, err)
	}
	if res, err := e.Compact(ctx, CompactRequest{Session: session, Messages: msgs}); err != nil || !res.Delegate {
		t.Errorf("Compact = %+v, %v; want a delegation", res, err)
	}
	for _, m := range []Method{MethodBootstrap, MethodIngest, MethodAfterTurn} {
		if _, err := callMethod(ctx, e, m); err != nil {
			t.Errorf("%s: %v", m, err)
		}
	}
	if n := stderr.count("helper started"); n != 1 {
		t.Errorf("%d processes started for one engine, want 1", n)
	}

	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Assemble(ctx, AssembleRequest{Messages: msgs}); !errors.Is(err, ErrClosed) {
		t.Errorf("Assemble after Close: %v, want ErrClosed", err)
	}
}

// TestExternalFailuresQuarantine runs engines that crash, hang, answer
// garbage or break the protocol behind a Guard: each call is answered by the
// default engine within seconds, and the quarantine says what happened.
func TestExternalFailuresQuarantine(t *testing.T) {
	sh := func(script string) func(*testing.T) ExternalConfig {
		return func(*testing.T) ExternalConfig {
			return ExternalConfig{Name: "broken", Command: []string{"sh", "-c", script}}
		}
	}
	helperRole := func(role string) func(*testing.T) ExternalConfig {
		return func(t *testing.T) ExternalConfig {
			cfg, _ := helperConfig(t, role)
			return cfg
		}
	}
	cases := []struct {
		name   string
		cfg    func(*testing.T) ExternalConfig
		reason Reason
		text   string // a regular expression the stored error matches
	}{
		// Dead before it reads: the request's write may fail first.
		{"crash", sh("exit 3"), ReasonCrash, "exit status 3|broken pipe"},
		{"hang", func(*testing.T) ExternalConfig {
			return ExternalConfig{Name: "broken", Command: []string{"sleep", "600"}}
		},
			ReasonTimeout, "no answer within 300ms"},
		{"garbage", sh("while read -r line; do echo garbage; done"), ReasonInvalidOutput, `not JSON`},
		{"a missing program", func(*testing.T) ExternalConfig {
			return ExternalConfig{Name: "broken", Command: []string{"/nonexistent/engine"}}
		}, ReasonCrash, "could not start"},
		{"an error answer", helperRole("error"), ReasonError, "no index for this session"},
		{"a result of the wrong shape", helperRole("wrong-shape"), ReasonInvalidOutput, "does not parse"},
		{"an answer without id", helperRole("no-id"), ReasonInvalidOutput, "without an id"},
		{"exits after the handshake", helperRole("exit-after-info"), ReasonCrash, "exit status 3"},
		// What it said on stderr last is quoted, whether it died or hung.
		{"crash saying why", sh("echo starting >&2; echo 'cannot open notes.db' >&2; exit 3"), ReasonCrash,
			`exit status 3; stderr: starting \| cannot open notes\.db$`},
		{"hang saying why", sh("echo 'waiting for the index' >&2; exec sleep 600"), ReasonTimeout,
			`no answer within 300ms; stderr: waiting for the index$`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			e := NewExternal(tc.cfg(t))
			t.Cleanup(func() { e.Close() })
			store, ev := newMemStore(), &events{}
			limit := startLimit
			if tc.reason == ReasonTimeout {
				limit = testLimit
			}
			g := NewGuard("broken", e, testLegacy(), GuardOptions{Timeout: limit, Store: store, OnQuarantine: ev.add})

			began := time.Now()
			res, err := g.Assemble(ctx, AssembleRequest{Session: session, SystemPrompt: "sp", Messages: transcript()})
			if took := time.Since(began); took > answerBound {
				t.Errorf("answered after %v", took)
			}
			if err != nil || res.SystemPromptAddition != "" || len(res.Messages) != len(transcript()) {
				t.Fatalf("Assemble = %+v, %v; want the default engine's pass-through", res, err)
			}
			evs := ev.list()
			if len(evs) != 1 || evs[0].Reason != tc.reason || evs[0].Method != MethodAssemble {
				t.Fatalf("events %+v, want one %s", evs, tc.reason)
			}
			q, ok, _ := store.Load(ctx, "broken")
			if !ok || q.Reason != tc.reason || q.Method != MethodAssemble || !regexp.MustCompile(tc.text).MatchString(q.Error) {
				t.Errorf("stored %+v, want %s with %q", q, tc.reason, tc.text)
			}
			e.mu.Lock()
			running := e.proc != nil
			e.mu.Unlock()
			if running {
				t.Error("the quarantined engine's process was kept")
			}
			if info, err := g.Info(ctx); err != nil || info.Name != LegacyName {
				t.Errorf("Info = %+v, %v; want the default engine's", info, err)
			}
		})
	}
}

// TestExternalDropsAStaleAnswer: an answer that comes after its caller
// gave up is not taken for the next request's.
func TestExternalDropsAStaleAnswer(t *testing.T) {
	cfg, stderr := helperConfig(t, "stale")
	e := NewExternal(cfg)
	t.Cleanup(func() { e.Close() })

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := e.Assemble(ctx, AssembleRequest{SystemPrompt: "first", Messages: transcript()})
		done <- err
	}()
	stderr.await(t, "holding")
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled call: %v", err)
	}
	res, err := e.Assemble(context.Background(), AssembleRequest{SystemPrompt: "second", Messages: transcript()})
	if err != nil || res.SystemPromptAddition != "second" {
		t.Errorf("the next call got %q, %v; want its own answer", res.SystemPromptAddition, err)
	}
}

func TestExternalConcurrentCallsShareOneProcess(t *testing.T) {
	const calls = 8
	cfg, stderr := helperConfig(t, "echo")
	e := NewExternal(cfg)
	t.Cleanup(func() { e.Close() })
	var wg sync.WaitGroup
	errs := make(chan error, calls)
	for i := range calls {
		wg.Go(func() {
			want := fmt.Sprintf("call %d", i)
			res, err := e.Assemble(context.Background(), AssembleRequest{SystemPrompt: want, Messages: transcript()})
			if err != nil || res.SystemPromptAddition != want {
				errs <- fmt.Errorf("%s got %q, %v", want, res.SystemPromptAddition, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := stderr.count("helper started"); n != 1 {
		t.Errorf("%d processes started, want 1", n)
	}
}

func TestExternalResetStartsAFreshProcess(t *testing.T) {
	ctx := context.Background()
	cfg, stderr := helperConfig(t, "echo")
	e := NewExternal(cfg)
	t.Cleanup(func() { e.Close() })
	if _, err := e.Info(ctx); err != nil {
		t.Fatal(err)
	}
	e.Reset()
	if _, err := e.Assemble(ctx, AssembleRequest{Messages: transcript()}); err != nil {
		t.Fatal(err)
	}
	if n := stderr.count("helper started"); n != 2 {
		t.Errorf("%d processes started, want a fresh one after Reset", n)
	}
}

// TestExternalCloseKillsTheProcessGroup: an engine that ignores the end of
// its input and left a process of its own holding its stdout is killed
// whole — the reader reaching the end of stdout proves the grandchild died.
func TestExternalCloseKillsTheProcessGroup(t *testing.T) {
	cfg, _ := helperConfig(t, "grandchild")
	e := NewExternal(cfg)
	if _, err := e.Info(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.mu.Lock()
	p := e.proc
	e.mu.Unlock()
	began := time.Now()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(began); took > closeGrace+reapWait {
		t.Errorf("Close took %v", took)
	}
	select {
	case <-p.exited:
	default:
		t.Fatal("Close returned before the engine was reaped")
	}
	p.mu.Lock()
	eof := p.eof
	p.mu.Unlock()
	if !eof {
		t.Error("stdout never reached its end: the engine's grandchild outlived Close")
	}
}
