package headless

import (
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
)

// TestCountdownRedrawsEachTick: a cooldown wait on a terminal counts down
// on one line, redrawn at each tick, and ends with a line end when stopped.
func TestCountdownRedrawsEachTick(t *testing.T) {
	start := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	clock := func() time.Time { return start }
	tick := make(chan time.Time)
	var w agenttest.Buffer
	info := runner.RetryStartInfo{Cooldown: true, DelayMs: 30_000, Profile: "openai:a", Reason: "rate_limit"}
	c := startCountdown(&w, info, clock, tick)
	for i := 1; i <= 2; i++ {
		tick <- start.Add(time.Duration(i) * time.Second)
	}
	c.stop()
	want := "\r↻ waiting 30s for openai:a (rate_limit) · Ctrl+C cancels\x1b[K" +
		"\r↻ waiting 29s for openai:a (rate_limit) · Ctrl+C cancels\x1b[K" +
		"\r↻ waiting 28s for openai:a (rate_limit) · Ctrl+C cancels\x1b[K\n"
	if got := w.String(); got != want {
		t.Errorf("countdown wrote\n%q\nwant\n%q", got, want)
	}
}

// TestCooldownWaitOffATerminal: off a terminal a cooldown wait is one line.
func TestCooldownWaitOffATerminal(t *testing.T) {
	var w agenttest.Buffer
	o := newToolOutput(&w, nil, 0)
	o.event(annotation(runner.AnnotationRetryStart, runner.RetryStartInfo{Cooldown: true, DelayMs: 30_000, Profile: "openai:a", Reason: "rate_limit"}))
	if got, want := w.String(), "↻ waiting 30s for openai:a (rate_limit)\n"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}

func annotation(kind string, data any) agent.Event {
	return agent.Annotation{Kind: kind, Data: data}
}
