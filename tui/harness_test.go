package tui

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/screen"
	"github.com/steer-tui/steer/tui/theme"
)

// harness drives the root model the way Bubble Tea does, but on the test's
// goroutine: Cmds run on their own goroutines and their messages, like the
// bridge's, come back through one channel that waitFor drains into Update.
// Spinner ticks are dropped so that views are deterministic.
type harness struct {
	t     *testing.T
	m     Model
	msgs  chan tea.Msg
	quit  bool
	ticks bool
}

// newHarness starts a model on rt at width×height with the plain theme, the
// fixed clock and a bridge that flushes every millisecond.
func newHarness(t *testing.T, rt Runtime, width, height int, opts ...func(*Options)) *harness {
	t.Helper()
	o := Options{Theme: theme.Plain(), Profile: termenv.Ascii, Now: fixedClock}
	for _, f := range opts {
		f(&o)
	}
	h := &harness{t: t, m: New(rt, o), msgs: make(chan tea.Msg, 4096)}
	b := startBridge(rt, func(msg tea.Msg) { h.msgs <- msg }, time.Millisecond, screen.RealClock)
	t.Cleanup(b.stop)
	servers := startMCPWatch(rt, func(msg tea.Msg) { h.msgs <- msg })
	t.Cleanup(servers.stop)
	h.m.calls.start(func(msg tea.Msg) { h.msgs <- msg })
	t.Cleanup(func() { h.m.calls.stop(time.Second) })
	h.send(tea.WindowSizeMsg{Width: width, Height: height})
	h.run(h.m.Init())
	h.waitFor("the session to load", func(m Model) bool { return m.status.Model().ID != "" })
	return h
}

// send hands msg to Update and runs the Cmd it returns.
func (h *harness) send(msg tea.Msg) {
	h.t.Helper()
	next, cmd := h.m.Update(msg)
	h.m = next.(Model)
	h.run(cmd)
}

func (h *harness) run(cmd tea.Cmd) {
	if cmd != nil {
		go func() { h.msgs <- cmd() }()
	}
}

// dispatch handles one message from a Cmd or the bridge.
func (h *harness) dispatch(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c)
		}
	case tea.QuitMsg:
		h.quit = true
	case spinner.TickMsg:
		if h.ticks {
			h.send(msg)
		}
	default:
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == reflect.TypeOf(tea.Cmd(nil)) {
			cmds := v.Convert(reflect.TypeOf([]tea.Cmd(nil))).Interface().([]tea.Cmd)
			go func() { // tea.Sequence: one after the other
				for _, c := range cmds {
					if c != nil {
						h.msgs <- c()
					}
				}
			}()
			return
		}
		if reflect.TypeOf(msg).PkgPath() == "github.com/charmbracelet/bubbletea" {
			return // terminal commands (mouse, screen): nothing to do headless
		}
		h.send(msg)
	}
}

// waitFor processes messages until cond holds, failing after a while.
func (h *harness) waitFor(what string, cond func(Model) bool) {
	h.t.Helper()
	deadline := time.After(5 * time.Second)
	for !cond(h.m) {
		select {
		case msg := <-h.msgs:
			h.dispatch(msg)
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s; view:\n%s", what, h.m.View())
		}
	}
}

// waitView waits until the view contains every one of texts.
func (h *harness) waitView(texts ...string) {
	h.t.Helper()
	h.waitFor(strings.Join(texts, " and "), func(m Model) bool {
		v := m.View()
		for _, s := range texts {
			if !strings.Contains(v, s) {
				return false
			}
		}
		return true
	})
}

// settle processes whatever is pending right now.
func (h *harness) settle() {
	for {
		select {
		case msg := <-h.msgs:
			h.dispatch(msg)
		case <-time.After(20 * time.Millisecond):
			return
		}
	}
}

func (h *harness) typeText(s string) {
	for _, r := range s {
		if r == ' ' {
			h.send(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
			continue
		}
		h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func (h *harness) key(t tea.KeyType, alt bool) { h.send(tea.KeyMsg{Type: t, Alt: alt}) }

// newRuntime is a real runtime whose provider plays responses, with the
// given tools.
func newRuntime(t *testing.T, tools []agent.Tool, responses ...*agenttest.Response) *runner.Host {
	t.Helper()
	script := agenttest.NewScript(responses...)
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream}},
		Tools:     tools,
		Now:       agenttest.Clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	h := runner.NewHost(rt)
	t.Cleanup(func() {
		h.AbortWith(runner.AbortQuit)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = h.WaitForIdle(ctx)
	})
	return h
}

// gate is a tool that prints lines, one update each, then waits for release
// (or the abort).
type gate struct {
	name    string
	lines   []string
	started chan struct{}
	release chan struct{}
}

func newGate(name string, lines ...string) *gate {
	return &gate{name: name, lines: lines, started: make(chan struct{}), release: make(chan struct{})}
}

func (g *gate) Spec() agent.ToolSpec {
	return agent.ToolSpec{Name: g.name, Description: "a test tool", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (g *gate) Execute(ctx context.Context, _ string, _ map[string]any, update agent.ToolUpdate) (agent.ToolResult, error) {
	var out []string
	for _, l := range g.lines {
		out = append(out, l)
		update(agent.TextResult(strings.Join(out, "\n")))
	}
	close(g.started)
	select {
	case <-g.release:
		return agent.TextResult(strings.Join(out, "\n")), nil
	case <-ctx.Done():
		return agent.ToolResult{Content: []agent.Content{agent.Text("[aborted]")}, IsError: true}, nil
	}
}

// closed reports whether ch is closed, without blocking.
func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
