package scripted

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmhttp/llmhttptest"
)

// TestStallWithPingsScenario: the shipped stall-with-pings scenario sends a
// keep-alive every second while stalled; with a 2.5 s window the watchdog
// fails the response at 2.5 s all the same, as a timeout that counts the two
// keep-alives and carries headers (the response had arrived). Another model
// gets an answer.
func TestStallWithPingsScenario(t *testing.T) {
	sc, err := LoadScenario("stall-with-pings")
	if err != nil {
		t.Fatal(err)
	}
	clock := llmhttptest.NewClock(t0)
	p := New(Options{Scenario: sc, IdleTimeout: 2500 * time.Millisecond, Now: fixedNow, Clock: clock, Sleep: clock.Sleep})
	stream := p.Stream(context.Background(), DefaultModel(), llmOf(user("hi")), agent.StreamOptions{})
	// Armings: the watchdog, the start (progress), then one wait per
	// keep-alive.
	for i, step := range []time.Duration{time.Second, time.Second, 500 * time.Millisecond} {
		if _, ok := clock.WaitArm(2 + i); !ok {
			t.Fatalf("keep-alive wait %d never started", i+1)
		}
		clock.Advance(step)
	}
	msg := endsWithin(t, 5*time.Second, stream)
	e := msg.Error
	if msg.StopReason != agent.StopReasonError || e == nil || e.Kind != agent.ErrorTimeout || e.Header == nil ||
		e.Message != "no progress from scripted for 2.5s (idle timeout; 2 keep-alives did not count)" {
		t.Fatalf("stop %s error %+v", msg.StopReason, e)
	}
	// Two keep-alive waits, then the watchdog.
	if fired := clock.Fired(); len(fired) != 3 || !fired[2].Equal(t0.Add(2500*time.Millisecond)) {
		t.Fatalf("timers fired at %v, want the watchdog's last, at +2.5s", fired)
	}
	tiny := DefaultModel()
	tiny.ID = "tiny"
	if other := endsWithin(t, 5*time.Second, p.Stream(context.Background(), tiny, llmOf(user("hi")), agent.StreamOptions{})); other.StopReason != agent.StopReasonStop {
		t.Fatalf("another model: stop %s (%s), want an answer", other.StopReason, other.ErrorMessage)
	}
}

func TestStepHeadersTravelWithTheError(t *testing.T) {
	sc, err := LoadScenario("retry-after")
	if err != nil {
		t.Fatal(err)
	}
	p := New(Options{Scenario: sc, Now: fixedNow})
	_, msg := ask(t, p, llmOf(user("hi")), agent.StreamOptions{})
	if e := msg.Error; e == nil || e.Status != 529 || http.Header(e.Header).Get("Retry-After") != "2" {
		t.Fatalf("error %+v", msg.Error)
	}
	if _, next := ask(t, p, llmOf(user("hi")), agent.StreamOptions{}); next.StopReason != agent.StopReasonStop {
		t.Fatalf("the retry: stop %s (%s)", next.StopReason, next.ErrorMessage)
	}
}

func TestStallStepValidation(t *testing.T) {
	cases := []struct {
		name string
		step Step
		want string
	}{
		{"keep-alives without a hang", Step{Text: "x", KeepAliveMS: 1000}, "keepAliveMs"},
		{"negative keep-alive", Step{Fault: FaultHang, KeepAliveMS: -1}, "keepAliveMs"},
		{"headers without a fault", Step{Text: "x", Error: &ErrorSpec{Headers: map[string]string{"Retry-After": "1"}}}, "give a fault"},
		{"a bad header name", Step{Fault: FaultHTTP, Error: &ErrorSpec{Status: 429, Headers: map[string]string{"Retry After": "1"}}}, "not a header name"},
	}
	for _, c := range cases {
		err := (&Scenario{Name: "s", Steps: []Step{c.step}}).Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	ok := Step{Fault: FaultHang, KeepAliveMS: 1000, Error: &ErrorSpec{Headers: map[string]string{"X-Request-Id": "r1"}}}
	if err := (&Scenario{Name: "s", Steps: []Step{ok}}).Validate(); err != nil {
		t.Errorf("a hang with keep-alives and headers: %v", err)
	}
}
