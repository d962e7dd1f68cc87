package chat

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/theme"
)

// TestRetryCountsDown: auto_retry_start shows a line that counts down with
// the clock and stops counting when the next attempt starts.
func TestRetryCountsDown(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m := New(Deps{Styles: theme.NewStyles(theme.Plain()).Chat, Keys: DefaultKeyMap(), Now: func() time.Time { return now }})
	m.SetSize(80, 10)
	info := runner.RetryStartInfo{Attempt: 1, MaxAttempts: 2, DelayMs: 3000, Reason: "overloaded", Profile: "anthropic:main"}
	m, _ = m.Update(events(agent.Annotation{Kind: "auto_retry_start", Data: info}))
	view := func() string { return ansi.Strip(m.View()) }
	if !strings.Contains(view(), "overloaded on profile anthropic:main: retrying in 3s (1/2)") {
		t.Fatalf("no countdown:\n%s", view())
	}
	m.SetSpinner("⠋", now.Add(2*time.Second))
	if !strings.Contains(view(), "retrying in 1s (1/2)") {
		t.Fatalf("the countdown did not move:\n%s", view())
	}
	m, _ = m.Update(events(agent.Annotation{Kind: runner.AnnotationAttemptStart, Data: runner.AttemptInfo{Profile: "anthropic:main", Attempt: 2}}))
	m.SetSpinner("⠙", now.Add(10*time.Second))
	if !strings.Contains(view(), "retrying now (1/2)") {
		t.Fatalf("the retry did not stop counting:\n%s", view())
	}
}

// TestCooldownWaitCountsDown: a cooldown wait counts down with how to
// cancel it, and says it waited once the next attempt starts.
func TestCooldownWaitCountsDown(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m := New(Deps{Styles: theme.NewStyles(theme.Plain()).Chat, Keys: DefaultKeyMap(), Now: func() time.Time { return now }})
	m.SetSize(80, 10)
	info := runner.RetryStartInfo{Attempt: 1, MaxAttempts: 3, DelayMs: 30_000, Reason: "rate_limit", Profile: "openai:a", Cooldown: true}
	m, _ = m.Update(events(agent.Annotation{Kind: "auto_retry_start", Data: info}))
	view := func() string { return ansi.Strip(m.View()) }
	m.SetSpinner("⠋", now.Add(7*time.Second))
	if !strings.Contains(view(), "↻ waiting 23s for openai:a (rate_limit) · Esc cancels") {
		t.Fatalf("no countdown:\n%s", view())
	}
	m, _ = m.Update(events(agent.Annotation{Kind: runner.AnnotationAttemptStart, Data: runner.AttemptInfo{Profile: "openai:a", Attempt: 2}}))
	if v := view(); !strings.Contains(v, "↻ waited 30s for openai:a (rate_limit)") || strings.Contains(v, "Esc cancels") {
		t.Fatalf("the wait did not end:\n%s", v)
	}
}
