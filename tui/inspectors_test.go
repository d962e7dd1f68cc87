package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/tui/msgs"
)

// fakeClock is a clock the test moves, shared by the runtime and the TUI.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// rotating is a provider whose profile bad fails with 401; the others
// answer with their profile's name.
func rotating(bad string) agent.StreamFn {
	return func(ctx context.Context, m agent.Model, _ agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
		out := agent.NewAssistantStream()
		go func() {
			w := agent.NewStreamWriter(ctx, out, m, agenttest.Epoch)
			w.Start()
			if opts.Profile == bad {
				w.Fail(&agent.ProviderError{Kind: agent.ErrorHTTP, Status: 401, Type: "authentication_error", Message: "invalid x-api-key"})
				return
			}
			w.TextDelta("answered by " + opts.Profile)
			w.Finish(agent.StopReasonStop)
		}()
		return out
	}
}

// rotationRuntime is a runtime on provider "test" with profiles test:a
// (which fails with auth) and test:b, the ledger in memory, on clock.
func rotationRuntime(t *testing.T, clock *fakeClock, ledger failover.Ledger, mutate ...func(*runner.Options)) *runner.Runtime {
	t.Helper()
	opts := runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: rotating("test:a"),
			Profiles: []runner.Profile{{ID: "test:a"}, {ID: "test:b"}}}},
		Ledger: ledger, Now: clock.Now,
	}
	for _, f := range mutate {
		f(&opts)
	}
	rt, err := runner.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		rt.Abort()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = rt.WaitForIdle(ctx)
		_ = rt.Close(ctx)
	})
	return rt
}

func (h *harness) command(line string) {
	h.t.Helper()
	h.typeText(line)
	h.key(tea.KeyEnter, false)
}

func (h *harness) press(r rune) { h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}) }

// statusLine is the status bar's line of the view.
func statusLine(m Model) string {
	lines := strings.Split(m.View(), "\n")
	return lines[len(lines)-2]
}

// TestRotationShows: a run that rotates from test:a (auth) to test:b: the
// transcript has one line for the rotation and one for test:a's cooldown;
// the status bar names test:b and shows the badge; /trace shows the
// attempt that rotated and why; alt+i opens the profiles.
func TestRotationShows(t *testing.T) {
	clock := &fakeClock{t: agenttest.Epoch}
	rt := rotationRuntime(t, clock, &failover.MemLedger{})
	h := newHarness(t, rt, 120, 30, func(o *Options) { o.Now = clock.Now })
	h.command("hello")
	h.waitView("answered by test:b", "↻ auth on profile test:a: trying profile test:b",
		"❄ profile test:a cools down for 30s (until "+agenttest.Epoch.Add(30*time.Second).Local().Format(time.TimeOnly)+"): auth")
	h.waitFor("the badge", func(m Model) bool { return strings.Contains(statusLine(m), "⚠ 1 cooldown") })
	if s := statusLine(h.m); !strings.Contains(s, "test/scripted-test · test:b") || !strings.Contains(s, "ctx ▱▱▱▱▱") {
		t.Fatalf("the status line does not name test:b or lacks the meter: %q", s)
	}
	if n := strings.Count(h.m.View(), "❄ profile test:a"); n != 1 {
		t.Fatalf("the cooldown is announced %d times", n)
	}

	h.command("/trace")
	h.waitView("Failover trace", "#1  attempt     test:a", "auth", "rotate_profile", "test:a → test:b", "#2  attempt     test:b")
	h.waitView("failed after", "decided: rotate to the next auth profile")
	h.key(tea.KeyEsc, false)
	h.waitFor("esc to close the trace", func(m Model) bool { return !m.inspecting })

	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'i'}, Alt: true})
	h.waitView("Auth profiles", "cooldown until", "30s")
}

// TestProfilesLive: /profiles counts a cooldown down with the clock, and
// c clears it after asking; the ledger agrees.
func TestProfilesLive(t *testing.T) {
	clock := &fakeClock{t: agenttest.Epoch}
	ledger := &failover.MemLedger{}
	_, err := ledger.Update(context.Background(), "test:a", func(st failover.ProfileState) failover.ProfileState {
		return st.RecordFailure(failover.Failure{At: clock.Now(), Reason: failover.ReasonRateLimit, Model: agenttest.Model.ID,
			ProviderReached: true}, failover.Cooldowns{})
	})
	if err != nil {
		t.Fatal(err)
	}
	rt := rotationRuntime(t, clock, ledger)
	h := newHarness(t, rt, 120, 30, func(o *Options) { o.Now = clock.Now })
	h.command("/profiles")
	h.waitView("test:a", "cooldown until", "30s", "rate_limit", "scripted-test", "test:b", "available")

	clock.Add(12 * time.Second)
	h.send(inspectTickMsg{gen: h.m.inspectGen})
	h.waitView("18s")
	h.waitFor("the badge", func(m Model) bool { return strings.Contains(statusLine(m), "⚠ 1 cooldown") })

	h.press('c')
	h.waitView("Clear the cooldown of test:a?")
	h.press('y') // typed right after c: ignored, it goes to the editor
	h.waitView("keys paused: you were typing")
	clock.Add(time.Second)
	h.press('y')
	h.waitView("cleared the cooldown of test:a")
	h.waitFor("the profile to be available", func(m Model) bool {
		row, _ := m.inspector.Selected()
		return row.Key == "test:a" && row.Cells[2].Text == "available"
	})
	views, err := rt.Profiles(context.Background())
	if err != nil || views[0].State != failover.StateAvailable {
		t.Fatalf("the ledger after clearing: %+v, %v", views, err)
	}
	h.waitFor("the badge to go", func(m Model) bool { return !strings.Contains(statusLine(m), "⚠") })
}

// TestEnginesLive: /engines is open when a run quarantines the selected
// engine (an external one that crashes): the quarantine appears with the
// method that failed and why; c clears it after asking.
func TestEnginesLive(t *testing.T) {
	clock := &fakeClock{t: agenttest.Epoch}
	rt := rotationRuntime(t, clock, &failover.MemLedger{}, func(o *runner.Options) {
		o.ContextEngine = "crashy"
		o.ContextEngines = map[string]runner.EngineConfig{"crashy": {Command: []string{"sh", "-c", "exit 3"}}}
		o.Workspace = t.TempDir()
	})
	h := newHarness(t, rt, 120, 30, func(o *Options) { o.Now = clock.Now })
	h.command("/engines")
	h.waitView("Context engines", "active: crashy", "legacy", "builtin")

	// Typing goes to the inspector: the run comes from elsewhere (rpc).
	if _, _, err := rt.Steer(context.Background(), "hello"); err != nil {
		t.Fatal(err)
	}
	h.waitView("crashy is quarantined, the built-in engine answers for it", "selected, quarantined", "crash")
	h.send(tea.KeyMsg{Type: tea.KeyDown})
	h.waitView("the engine exited: exit status 3")
	if v := h.m.View(); !strings.Contains(v, "assemble") && !strings.Contains(v, "ingest") {
		t.Fatalf("the quarantine does not name the method that failed:\n%s", v)
	}
	h.waitFor("the badge", func(m Model) bool { return strings.Contains(statusLine(m), "1 quarantined") })
	// Cleared while the run still told the engine of its messages, the
	// engine would be quarantined again, as it should.
	h.waitFor("the run to end", func(m Model) bool { return !m.running && !rt.State().Running })

	h.press('c')
	h.waitView("Clear the quarantine of crashy?")
	clock.Add(time.Second)
	h.press('y')
	h.waitView("cleared the quarantine of crashy", "active: crashy")
	view, err := rt.Engines(context.Background())
	if err != nil || len(view.Quarantines) != 0 {
		t.Fatalf("the engines after clearing: %+v, %v", view, err)
	}
	h.key(tea.KeyEsc, false)
	h.waitView("⚠ context engine crashy quarantined")
	// The calls that failed together are one quarantine: one line.
	if n := strings.Count(h.m.View(), "⚠ context engine crashy quarantined"); n != 1 {
		t.Fatalf("%d quarantine lines, want one:\n%s", n, h.m.View())
	}
}

// TestLanesLive: /lanes shows the run that holds the global and session
// lanes while it runs, and the lanes idle once it has ended.
func TestLanesLive(t *testing.T) {
	h, probe := runWithGate(t, agenttest.Reply().Text("done").Stop(agent.StopReasonStop))
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	h.command("/lanes")
	h.waitView("Lanes", "1 process: 1 running, 0 waiting", "global", "running", "foreground")
	close(probe.release)
	h.waitView("1 process: 0 running, 0 waiting", "idle (cap")
}

// TestQuarantineNotice: a quarantine reported outside a request (an
// engine told of a finished turn) gets a line in the transcript.
func TestQuarantineNotice(t *testing.T) {
	h := newHarness(t, newRuntime(t, nil), 100, 20)
	h.send(msgs.NoticeArrivedMsg{Notice: runner.Notice{Kind: runner.NoticeQuarantine,
		Text: "context engine notes quarantined (afterTurn failed: timeout); the built-in engine answers instead"}})
	h.waitView("⚠ context engine notes quarantined (afterTurn failed: timeout)")
}

// TestProfilesInspectorChoosesProfiles: p and l in /profiles set the
// session's choice through the runtime, and the inspector shows it.
func TestProfilesInspectorChoosesProfiles(t *testing.T) {
	rt := newRuntime(t, nil)
	h := newHarness(t, rt, 120, 30)
	h.send(msgs.OpenInspectorMsg{Which: msgs.InspectProfiles})
	h.waitView("test:default")
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'p'}})
	h.waitView("test:default ★")
	if preferred, _ := rt.Current().ProfileChoice(); preferred != "test:default" {
		t.Fatalf("preferred = %q", preferred)
	}
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'l'}})
	h.waitView("test:default 🔒", "locked: the only profile this session uses")
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'l'}})
	h.waitFor("the lock to go", func(m Model) bool { return !strings.Contains(m.View(), "🔒") })
	if preferred, locked := rt.Current().ProfileChoice(); preferred != "test:default" || locked != "" {
		t.Fatalf("choice = %q, %q; want test:default preferred, no lock", preferred, locked)
	}
}
