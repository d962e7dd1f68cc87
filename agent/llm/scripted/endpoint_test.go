package scripted

import (
	"context"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm"
)

// TestStreamsShareOnePlayer: providers without watchdog windows of their
// own play one scenario's steps once between them; one with its own
// windows plays them again.
func TestStreamsShareOnePlayer(t *testing.T) {
	newStream := Streams(Options{Scenario: &Scenario{Name: "once", Steps: []Step{{Text: "scripted step"}}}, Now: fixedNow})
	stream := func(e llm.Endpoint) agent.StreamFn {
		fn, err := newStream(e)
		if err != nil {
			t.Fatal(err)
		}
		return fn
	}
	first, second := stream(llm.Endpoint{}), stream(llm.Endpoint{BaseURL: "ignored"})
	own := stream(llm.Endpoint{IdleTimeout: time.Minute})
	ask := func(fn agent.StreamFn) string {
		_, msg := drain(t, fn(context.Background(), DefaultModel(), llmOf(user("hi")), agent.StreamOptions{}))
		return msg.TextContent()
	}
	if got := ask(first); got != "scripted step" {
		t.Fatalf("first = %q, want the step", got)
	}
	if got := ask(second); got == "scripted step" {
		t.Errorf("second played the step again: it does not share the first's player")
	}
	if got := ask(own); got != "scripted step" {
		t.Errorf("own windows = %q, want the step played by a player of its own", got)
	}
}

func TestRehearsalName(t *testing.T) {
	for in, want := range map[string]string{
		"":                      "",
		"rate-limit":            "rate-limit",
		"/tmp/x/my-run.json":    "my-run",
		"scenarios/failover.js": "failover",
	} {
		if got := RehearsalName(in); got != want {
			t.Errorf("RehearsalName(%q) = %q, want %q", in, got, want)
		}
	}
}
