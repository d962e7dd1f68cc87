package anthropic

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmhttp/llmhttptest"
	"github.com/steer-tui/steer/agent/llm/llmtest"
)

// ping is Anthropic's keep-alive event, which the API sends while a
// response is in progress, also when it has stalled.
var ping = sse("ping", `{"type": "ping"}`)

// TestPingsDoNotKeepAStalledStreamAlive: a server that sends a ping every
// second but no delta is cut one idle window after its last delta, as a
// timeout.
func TestPingsDoNotKeepAStalledStreamAlive(t *testing.T) {
	clock := llmhttptest.NewClock(t0)
	srv := llmhttptest.NewTickedServer(t, wire.Head+wire.Text("Hel"), func(int) string { return ping })
	p := newProvider(t, Config{BaseURL: srv.URL, IdleTimeout: 120 * time.Second, Clock: clock})
	stream := p.Stream(context.Background(), testModel, llmtest.Prompt, agent.StreamOptions{})
	// The watchdog's arming, then one per event of the head.
	if _, ok := clock.WaitArm(3); !ok {
		t.Fatal("the head never reached the watchdog")
	}
	for i := 1; len(clock.Fired()) == 0; i++ {
		if !srv.Tick() {
			t.Fatalf("the request ended after %d pings", i-1)
		}
		clock.Advance(time.Second)
	}
	if fired := clock.Fired(); !fired[0].Equal(t0.Add(120 * time.Second)) {
		t.Fatalf("fired at +%v, want +2m0s after the last delta", fired[0].Sub(t0))
	}
	_, msg := llmtest.Drain(t, stream)
	e := msg.Error
	if msg.StopReason != agent.StopReasonError || e == nil || e.Kind != agent.ErrorTimeout || msg.TextContent() != "Hel" ||
		!strings.Contains(e.Message, "from anthropic for 2m0s (idle timeout") {
		t.Fatalf("stop %s text %q error %+v", msg.StopReason, msg.TextContent(), e)
	}
	<-srv.Gone()
}

// TestUnknownEventsAreNotProgress: an event of a kind the client does not
// know is ignored, as the API asks, and leaves the window running.
func TestUnknownEventsAreNotProgress(t *testing.T) {
	clock := llmhttptest.NewClock(t0)
	srv := llmhttptest.NewTickedServer(t, wire.Head+wire.Text("Hel"),
		func(int) string { return sse("telemetry", `{"type":"telemetry"}`) })
	p := newProvider(t, Config{BaseURL: srv.URL, IdleTimeout: 10 * time.Second, FirstProgressTimeout: time.Minute, Clock: clock})
	stream := p.Stream(context.Background(), testModel, llmtest.Prompt, agent.StreamOptions{})
	first, _ := clock.WaitArm(0)
	if want := t0.Add(time.Minute); !first.Equal(want) {
		t.Fatalf("armed until %v before the first progress, want %v", first, want)
	}
	deadline, _ := clock.WaitArm(3)
	for i := 1; len(clock.Fired()) == 0; i++ {
		clock.Advance(time.Second)
		if len(clock.Fired()) > 0 || !srv.Tick() {
			break
		}
		if d, ok := clock.WaitArm(3 + i); !ok || !d.Equal(deadline) {
			t.Fatalf("unknown event %d moved the deadline from %v to %v", i, deadline, d)
		}
	}
	_, msg := llmtest.Drain(t, stream)
	if e := msg.Error; e == nil || e.Message != "no progress from anthropic for 10s (idle timeout; 9 keep-alives did not count)" {
		t.Fatalf("error %+v", e)
	}
}
