package status

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/contextguard/engines"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/theme"
)

func TestBar(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m := New(Deps{Styles: theme.NewStyles(theme.Plain()).Status, Now: func() time.Time { return now }})
	m.SetSize(100)
	m, _ = m.Update(msgs.SessionLoadedMsg{Model: agent.Model{Provider: "scripted", ID: "echo", ContextWindow: 10000}, Thinking: agent.ThinkingLow})
	if v := m.View(); !strings.Contains(v, "scripted/echo (offline) · thinking low") || !strings.Contains(v, "idle") {
		t.Fatalf("idle bar: %q", v)
	}
	m, cmd := m.Update(msgs.RunEventMsg{Events: []agent.Event{agent.AgentStart{}}})
	if cmd == nil {
		t.Fatal("a run does not start the spinner")
	}
	now = now.Add(75 * time.Second)
	m, _ = m.Update(msgs.RunEventMsg{Events: []agent.Event{agent.MessageEnd{Message: agent.Message{
		Role: agent.RoleAssistant, Usage: agent.Usage{Input: 8000, Output: 1500},
	}}}})
	m.now = now
	m.render()
	v := m.View()
	for _, want := range []string{"working 1m15s", "↑8.0k ↓1.5k", "ctx ▰▰▰▰▰ 9.5k/10k"} {
		if !strings.Contains(v, want) {
			t.Errorf("bar %q lacks %q", v, want)
		}
	}
	m, _ = m.Update(msgs.ErrorMsg{Action: "switch the model", Err: errString("unknown model")})
	if v := m.View(); !strings.Contains(v, "cannot switch the model: unknown model") {
		t.Fatalf("error: %q", v)
	}
	m.ClearHint()
	for _, w := range []int{60, 30, 10} {
		m.SetSize(w)
		if got := ansi.StringWidth(m.View()); got > w {
			t.Errorf("at width %d the bar is %d wide: %q", w, got, m.View())
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }

func newBar() Model {
	m := New(Deps{Styles: theme.NewStyles(theme.Plain()).Status})
	m.SetSize(100)
	return m
}

func TestTimedHintExpiresUnlessReplaced(t *testing.T) {
	m := newBar()
	m, cmd := m.Update(msgs.HintMsg{Text: "press ctrl+c again to quit", For: 10 * time.Millisecond})
	if cmd == nil {
		t.Fatal("a timed hint returned no tick")
	}
	expired := cmd()
	m, _ = m.Update(expired)
	if strings.Contains(m.View(), "again to quit") {
		t.Fatalf("the hint did not expire: %q", m.View())
	}

	m, cmd = m.Update(msgs.HintMsg{Text: "press ctrl+c again to quit", For: 10 * time.Millisecond})
	m, _ = m.Update(msgs.HintMsg{Text: "a newer hint"})
	m, _ = m.Update(cmd())
	if !strings.Contains(m.View(), "a newer hint") {
		t.Fatalf("the old hint's expiry cleared the newer hint: %q", m.View())
	}
}

func TestCostAndStreamingTokens(t *testing.T) {
	priced := agent.Model{Provider: "p", ID: "m", Cost: agent.ModelCost{Input: 3, Output: 15}}
	m := newBar()
	m, _ = m.Update(msgs.SessionLoadedMsg{Model: priced, Messages: []agent.Message{
		{Role: agent.RoleAssistant, Usage: agent.Usage{Input: 1000, Output: 100, Cost: agent.Cost{Total: 0.0045}}},
		{Role: agent.RoleAssistant, Usage: agent.Usage{Input: 2000, Output: 200, Cost: agent.Cost{Input: 0.006, Output: 0.003}}},
	}})
	if v := m.View(); !strings.Contains(v, "$0.014") || !strings.Contains(v, "↑3.0k ↓300") {
		t.Fatalf("bar %q lacks the session's cost $0.014 and tokens", v)
	}

	// While the answer streams, its tokens are estimated from its text and
	// the request's from the meter's measure of it.
	m, _ = m.Update(msgs.ContextMeasuredMsg{Meter: runner.ContextMeter{Tokens: 2500}})
	streaming := agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.Text(strings.Repeat("word ", 400))}}
	m, _ = m.Update(msgs.RunEventMsg{Events: []agent.Event{agent.AgentStart{}, agent.MessageUpdate{Message: streaming}}})
	if v := m.View(); !strings.Contains(v, "↓~800") || !strings.Contains(v, "↑~5.5k") {
		t.Fatalf("bar %q does not estimate the streaming tokens (↓ ~500 + 300, ↑ ~2.5k + 3.0k)", v)
	}
	// A provider that says the input as the answer starts is believed.
	reported := streaming
	reported.Usage.Input = 2700
	m, _ = m.Update(msgs.RunEventMsg{Events: []agent.Event{agent.MessageUpdate{Message: reported}}})
	if v := m.View(); !strings.Contains(v, "↑5.7k ↓~800") {
		t.Fatalf("bar %q does not show the reported input (2.7k + 3.0k)", v)
	}
	done := streaming
	done.Usage = agent.Usage{Input: 3000, Output: 480, Cost: agent.Cost{Total: 0.0162}}
	m, _ = m.Update(msgs.RunEventMsg{Events: []agent.Event{agent.MessageEnd{Message: done}}})
	if v := m.View(); !strings.Contains(v, "↓780") || strings.Contains(v, "~") || !strings.Contains(v, "$0.030") {
		t.Fatalf("bar %q does not show the provider's count and the new cost", v)
	}

	free := newBar()
	free, _ = free.Update(msgs.SessionLoadedMsg{Model: agent.Model{Provider: "scripted", ID: "echo"}})
	if v := free.View(); strings.Contains(v, "$") {
		t.Fatalf("a free model shows a cost: %q", v)
	}
}

func TestPersistWarningLine(t *testing.T) {
	m := newBar()
	m, _ = m.Update(msgs.SessionLoadedMsg{PersistError: "saving the message failed: disk full"})
	if m.Height() != 2 || !strings.Contains(m.View(), "not saved: saving the message failed: disk full") {
		t.Fatalf("no warning line from the snapshot (height %d): %q", m.Height(), m.View())
	}
	m, _ = m.Update(msgs.NoticeArrivedMsg{Notice: runner.Notice{Kind: runner.NoticePersistRecovered, Text: "saving works again"}})
	if m.Height() != 1 || strings.Contains(m.View(), "not saved") {
		t.Fatalf("the warning stayed after the recovery: %q", m.View())
	}
	m, _ = m.Update(msgs.NoticeArrivedMsg{Notice: runner.Notice{Kind: runner.NoticePersistError, Text: "saving the queue failed: read-only"}})
	m.ClearHint() // a key does not clear it
	if m.Height() != 2 || !strings.Contains(m.View(), "saving the queue failed: read-only") {
		t.Fatalf("no warning line from the notice: %q", m.View())
	}
	for _, w := range []int{40, 10} {
		m.SetSize(w)
		for _, l := range strings.Split(m.View(), "\n") {
			if ansi.StringWidth(l) > w {
				t.Errorf("at width %d a line is wider: %q", w, l)
			}
		}
	}
}

// TestProfileBadgeAndMeter: the bar names the profile of the latest
// attempt, counts what cannot be used, and colours the meter by the
// guard's route, saying what the guard would do.
func TestProfileBadgeAndMeter(t *testing.T) {
	m := newBar()
	m.SetSize(140)
	m, _ = m.Update(msgs.SessionLoadedMsg{Model: agent.Model{Provider: "p", ID: "m", ContextWindow: 200_000}})
	attempt := func(profile string) agent.Event {
		return agent.Annotation{Kind: runner.AnnotationAttemptStart, Data: runner.AttemptInfo{Profile: profile, Model: "p/m", Attempt: 1}}
	}
	m, _ = m.Update(msgs.RunEventMsg{Events: []agent.Event{attempt("p:a"), attempt("p:b")}})
	if v := m.View(); !strings.HasPrefix(v, "p/m · p:b · thinking off") {
		t.Fatalf("the bar does not name the profile in use: %q", v)
	}
	m, _ = m.Update(msgs.ModelChangedMsg{Model: agent.Model{Provider: "p", ID: "m", ContextWindow: 200_000}})
	if v := m.View(); !strings.HasPrefix(v, "p/m · p:b · thinking off") {
		t.Fatalf("the same model again forgets its profile: %q", v)
	}
	m, _ = m.Update(msgs.ModelChangedMsg{Model: agent.Model{Provider: "q", ID: "n"}})
	if v := m.View(); !strings.HasPrefix(v, "q/n · thinking off") {
		t.Fatalf("another model keeps the profile of the last one: %q", v)
	}
	m, _ = m.Update(msgs.ModelChangedMsg{Model: agent.Model{Provider: "p", ID: "m", ContextWindow: 200_000}})
	m, _ = m.Update(msgs.RunEventMsg{Events: []agent.Event{attempt("p:b")}})
	until := time.Now().Add(time.Minute)
	reason := "rate_limit"
	m, _ = m.Update(msgs.HealthChangedMsg{
		Profiles: []runner.ProfileView{{ID: "p:a", State: "cooldown", Until: &until, Reason: &reason}, {ID: "p:b", State: "available"},
			{ID: "p:c", State: "disabled", Until: &until, Reason: &reason}},
		Engines: runner.EnginesView{Quarantines: make([]engines.Quarantine, 1)},
	})
	if b := m.Badge(); b != "1 cooldown, 1 disabled, 1 quarantined" || !strings.Contains(m.View(), "⚠ "+b) {
		t.Fatalf("badge %q in %q", b, m.View())
	}
	for _, c := range []struct {
		meter runner.ContextMeter
		want  string
	}{
		{runner.ContextMeter{Tokens: 3800, Window: 200_000, Route: runner.MeterFits}, "ctx ▱▱▱▱▱ 3.8k/200k ·"},
		{runner.ContextMeter{Tokens: 150_000, Window: 200_000, Route: runner.MeterTruncate}, "ctx ▰▰▰▰▱ 150k/200k will truncate"},
		{runner.ContextMeter{Tokens: 260_000, Window: 200_000, Route: runner.MeterCompact}, "ctx ▰▰▰▰▰ 260k/200k will compact"},
	} {
		m, _ = m.Update(msgs.ContextMeasuredMsg{Meter: c.meter})
		if !strings.Contains(m.View(), c.want) {
			t.Errorf("meter %+v: bar %q lacks %q", c.meter, m.View(), c.want)
		}
	}
	m, _ = m.Update(msgs.HealthChangedMsg{})
	if strings.Contains(m.View(), "⚠") {
		t.Fatalf("the badge stayed when all is well: %q", m.View())
	}
}

// TestSwitchToARunningSession: a run switched to counts its time from its
// own start; the badge tells the sessions left running in the background.
func TestSwitchToARunningSession(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)
	m := New(Deps{Styles: theme.NewStyles(theme.Plain()).Status, Now: func() time.Time { return now }})
	m.SetSize(120)
	m, _ = m.Update(msgs.RunEventMsg{Events: []agent.Event{agent.Annotation{Kind: runner.AnnotationBackgroundRuns,
		Data: []runner.BackgroundRun{{SessionID: "s_a"}, {SessionID: "s_b", Approvals: 1}}}}})
	m, _ = m.Update(msgs.SessionLoadedMsg{Running: true, Switched: true, RunStarted: now.Add(-2 * time.Minute), Subagent: true})
	v := m.View()
	for _, want := range []string{"working 2m00s", "sub-agent · read-only", "▶ 2 in background, 1 asks"} {
		if !strings.Contains(v, want) {
			t.Errorf("bar %q lacks %q", v, want)
		}
	}
	m, _ = m.Update(msgs.RunEventMsg{Events: []agent.Event{agent.Annotation{Kind: runner.AnnotationBackgroundRuns,
		Data: []runner.BackgroundRun{}}}})
	if v := m.View(); strings.Contains(v, "background") {
		t.Errorf("the badge stays with nothing in the background: %q", v)
	}
}

// TestWaitsSayWhy: while a run waits — for a lane, the user's approval, a
// cooldown or a retry — the bar says what for, counting a wait down with
// its tick, and "working" again once the wait is over.
func TestWaitsSayWhy(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ann := func(kind string, data any) agent.Event { return agent.Annotation{Kind: kind, Data: data} }
	attempt := ann(runner.AnnotationAttemptStart, runner.AttemptInfo{Profile: "p:a", Model: "p/m", Attempt: 2})
	type step struct {
		after time.Duration // the clock moves on, then the bar ticks
		ev    agent.Event   // nil: only the tick
		want  string
	}
	for _, c := range []struct {
		name  string
		steps []step
	}{
		{"lane", []step{
			{0, ann(runner.AnnotationLaneWait, runner.LaneWait{Lane: "global", Ahead: 2}), "waiting in lane global (2 ahead)"},
			{time.Second, ann(runner.AnnotationLaneWait, runner.LaneWait{Lane: "global", Ahead: 1}), "waiting in lane global (1 ahead)"},
			{time.Second, ann(runner.AnnotationLaneWaitEnd, runner.LaneWaitEnd{Entered: true}), "working 2s"},
		}},
		{"session lane until the attempt", []step{
			{0, ann(runner.AnnotationLaneWait, runner.LaneWait{Lane: "session", Ahead: 1}), "waiting in lane session (1 ahead)"},
			{time.Second, attempt, "working 1s"},
		}},
		{"approval", []step{
			{0, ann(runner.AnnotationApprovalRequest, runner.ApprovalRequest{ID: "t1"}), "waiting for your approval"},
			{0, ann(runner.AnnotationApprovalRequest, runner.ApprovalRequest{ID: "t1", SessionID: "s_child"}), "waiting for your approval"},
			{time.Second, ann(runner.AnnotationApprovalResolved, runner.ApprovalResolved{ID: "t1", Decision: "allow"}), "waiting for your approval"},
			{time.Second, ann(runner.AnnotationApprovalResolved, runner.ApprovalResolved{ID: "t1", SessionID: "s_child", Error: "the run was aborted"}), "working 2s"},
		}},
		{"cooldown", []step{
			{0, ann(runner.AnnotationRetryStart, runner.RetryStartInfo{Cooldown: true, DelayMs: 23_000, Profile: "p:a", Reason: "rate_limit"}), "waiting 23 s for a cooldown"},
			{5 * time.Second, nil, "waiting 18 s for a cooldown"},
			{500 * time.Millisecond, nil, "waiting 18 s for a cooldown"},
			{17 * time.Second, nil, "waiting 1 s for a cooldown"},
			{time.Second, attempt, "working 23s"},
		}},
		{"cooldown given up", []step{
			{0, ann(runner.AnnotationRetryStart, runner.RetryStartInfo{Cooldown: true, DelayMs: 30_000}), "waiting 30 s for a cooldown"},
			{time.Second, ann(runner.AnnotationRetryEnd, runner.RetryEndInfo{FinalError: "aborted"}), "working 1s"},
		}},
		{"retry", []step{
			{0, ann(runner.AnnotationRetryStart, runner.RetryStartInfo{DelayMs: 3000, Profile: "p:a", Attempt: 1, MaxAttempts: 2}), "retrying in 3 s"},
			{2 * time.Second, nil, "retrying in 1 s"},
			{time.Second, nil, "retrying now"},
			{0, attempt, "working 3s"},
		}},
		{"the end of the run ends every wait", []step{
			{0, ann(runner.AnnotationApprovalRequest, runner.ApprovalRequest{ID: "t1"}), "waiting for your approval"},
			{0, agent.AgentEnd{}, "idle"},
			{0, agent.AgentStart{}, "working 0s"},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			now := start
			m := New(Deps{Styles: theme.NewStyles(theme.Plain()).Status, Now: func() time.Time { return now }})
			m.SetSize(120)
			m, _ = m.Update(msgs.RunEventMsg{Events: []agent.Event{agent.AgentStart{}}})
			for i, s := range c.steps {
				now = now.Add(s.after)
				m, _ = m.Update(m.spin.Tick())
				if s.ev != nil {
					m, _ = m.Update(msgs.RunEventMsg{Events: []agent.Event{s.ev}})
				}
				v := m.View()
				if !strings.Contains(v, s.want) {
					t.Fatalf("step %d: bar %q lacks %q", i, v, s.want)
				}
				if s.want != "idle" && !strings.HasPrefix(s.want, "working") && strings.Contains(v, "working") {
					t.Fatalf("step %d: the bar says working while it waits: %q", i, v)
				}
			}
		})
	}
}

// TestSwitchToASessionThatAsks: the approvals a session's snapshot says
// wait are what its bar waits for.
func TestSwitchToASessionThatAsks(t *testing.T) {
	m := newBar()
	m, _ = m.Update(msgs.SessionLoadedMsg{SessionID: "s_b", Running: true, Switched: true,
		Approvals: []runner.ApprovalRequest{{ID: "t9"}}})
	if v := m.View(); !strings.Contains(v, "waiting for your approval") {
		t.Fatalf("bar %q does not wait for the approval of the session switched to", v)
	}
	m, _ = m.Update(msgs.SessionLoadedMsg{SessionID: "s_a", Running: true, Switched: true})
	if v := m.View(); !strings.Contains(v, "working") {
		t.Fatalf("bar %q waits for an approval of the session left", v)
	}
}

// TestFallbackNamesTheModelAnswering: after a fallback the bar names the
// model that answers, the one it fell back from, and the profile in use;
// a session switched to, or another model chosen, forgets it.
func TestFallbackNamesTheModelAnswering(t *testing.T) {
	m := newBar()
	m.SetSize(140)
	m, _ = m.Update(msgs.SessionLoadedMsg{SessionID: "s_a", Model: agent.Model{Provider: "anthropic", ID: "opus"}})
	ann := func(kind string, info runner.AttemptInfo) agent.Event {
		return agent.Annotation{Kind: kind, Data: info}
	}
	m, _ = m.Update(msgs.RunEventMsg{Events: []agent.Event{
		agent.AgentStart{},
		ann(runner.AnnotationAttemptStart, runner.AttemptInfo{Profile: "anthropic:main", Model: "anthropic/opus", Attempt: 1}),
		ann(runner.AnnotationFailover, runner.AttemptInfo{Reason: "overloaded", Decision: "fallback_model", From: "anthropic/opus", To: "openai/gpt-5"}),
	}})
	if v := m.View(); !strings.HasPrefix(v, "openai/gpt-5 (fallback from anthropic/opus) · anthropic:main") {
		t.Fatalf("after the failover the bar does not name the model fallen back to: %q", v)
	}
	m, _ = m.Update(msgs.RunEventMsg{Events: []agent.Event{
		ann(runner.AnnotationAttemptStart, runner.AttemptInfo{Profile: "openai:work", Model: "openai/gpt-5", Attempt: 2}),
		agent.AgentEnd{},
	}})
	if v := m.View(); !strings.HasPrefix(v, "openai/gpt-5 (fallback from anthropic/opus) · openai:work · thinking off") {
		t.Fatalf("the bar does not name the model and profile answering: %q", v)
	}
	m.SetSize(60)
	if v := m.View(); !strings.HasPrefix(v, "openai/gpt-5 (fallback) · openai:work") {
		t.Fatalf("narrow, the bar does not keep the model answering: %q", v)
	}
	m.SetSize(140)
	m, _ = m.Update(msgs.RunEventMsg{Events: []agent.Event{agent.AgentStart{},
		ann(runner.AnnotationAttemptStart, runner.AttemptInfo{Profile: "anthropic:main", Model: "anthropic/opus", Attempt: 1})}})
	if v := m.View(); !strings.HasPrefix(v, "anthropic/opus · anthropic:main") {
		t.Fatalf("back on the session's model the bar still says fallback: %q", v)
	}
	m, _ = m.Update(msgs.RunEventMsg{Events: []agent.Event{
		ann(runner.AnnotationAttemptStart, runner.AttemptInfo{Profile: "openai:work", Model: "openai/gpt-5", Attempt: 2})}})
	m, _ = m.Update(msgs.SessionLoadedMsg{SessionID: "s_b", Model: agent.Model{Provider: "anthropic", ID: "opus"}})
	if v := m.View(); !strings.HasPrefix(v, "anthropic/opus · thinking off") {
		t.Fatalf("another session's bar shows this one's fallback: %q", v)
	}
}

// TestAStalledRunSaysSo: between run_stalled and run_resumed (or the run's
// end) the bar says the run is stalled and for how long, not "working";
// a session switched to brings its stall along.
func TestAStalledRunSaysSo(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)
	since := now.Add(-runner.StallAfter)
	stalled := msgs.NoticeArrivedMsg{Notice: runner.Notice{Kind: runner.NoticeRunStalled,
		Data: runner.StallInfo{SessionID: "s_a", SinceMs: since.UnixMilli()}}}
	resumed := msgs.NoticeArrivedMsg{Notice: runner.Notice{Kind: runner.NoticeRunResumed,
		Data: runner.StallInfo{SessionID: "s_a", SinceMs: since.UnixMilli()}}}
	for _, c := range []struct {
		name string
		msgs []tea.Msg
		want string
	}{
		{"stalled", []tea.Msg{stalled}, "stalled: no progress for 2m00s"},
		{"resumed", []tea.Msg{stalled, resumed}, "working"},
		{"the run ended", []tea.Msg{stalled, msgs.RunEventMsg{Events: []agent.Event{agent.AgentEnd{}}}}, "idle"},
		{"a session switched to", []tea.Msg{msgs.SessionLoadedMsg{SessionID: "s_b", Running: true, Switched: true, Stalled: since}},
			"stalled: no progress for 2m00s"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := New(Deps{Styles: theme.NewStyles(theme.Plain()).Status, Now: func() time.Time { return now }})
			m.SetSize(120)
			m, _ = m.Update(msgs.RunEventMsg{Events: []agent.Event{agent.AgentStart{}}})
			for _, msg := range c.msgs {
				m, _ = m.Update(msg)
			}
			if v := m.View(); !strings.Contains(v, c.want) {
				t.Fatalf("bar %q lacks %q", v, c.want)
			}
			if c.want != "stalled: no progress for 2m00s" && strings.Contains(m.View(), "stalled") {
				t.Fatalf("bar %q still says stalled", m.View())
			}
		})
	}
}
