package llmhttp_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmhttp"
	"github.com/steer-tui/steer/agent/llm/llmhttp/llmhttptest"
)

var start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// piece hands one piece of a response to the watchdog as a reader does.
func piece(d *llmhttp.Watchdog, progress bool) {
	d.Pause()
	d.Resume(progress)
}

func TestWatchdogCountsProgressNotKeepAlives(t *testing.T) {
	clock := llmhttptest.NewClock(start)
	d := llmhttp.NewWatchdog(context.Background(), "p", llmhttp.Windows{Idle: 120 * time.Second}, clock)
	defer d.Stop()
	piece(d, true) // a delta at 0 s
	for range 200 {
		if d.Context().Err() != nil {
			break
		}
		clock.Advance(time.Second)
		piece(d, false) // a ping, an empty chunk: every second
	}
	fired := clock.Fired()
	if len(fired) != 1 || !fired[0].Equal(start.Add(120*time.Second)) {
		t.Fatalf("fired at %v, want once at +120s", fired)
	}
	if !d.TimedOut() {
		t.Fatal("not reported as a timeout")
	}
	e := d.IdleFailure()
	if e.Kind != agent.ErrorTimeout || e.Message != "no progress from p for 2m0s (idle timeout; 120 keep-alives did not count)" {
		t.Fatalf("failure = %+v", e)
	}
}

func TestWatchdogSlowStreamIsNeverCut(t *testing.T) {
	clock := llmhttptest.NewClock(start)
	d := llmhttp.NewWatchdog(context.Background(), "p", llmhttp.Windows{Idle: 120 * time.Second}, clock)
	defer d.Stop()
	for range 20 { // ten minutes of a delta every 30 s
		clock.Advance(30 * time.Second)
		piece(d, true)
	}
	if err := d.Context().Err(); err != nil || len(clock.Fired()) != 0 {
		t.Fatalf("a steady slow stream was cut: %v, fired %v", err, clock.Fired())
	}
}

func TestWatchdogFirstProgressWindow(t *testing.T) {
	cases := []struct {
		name      string
		windows   llmhttp.Windows
		progress  []time.Duration // when progress arrives, from the start
		wantFired time.Duration
		wantMsg   string
	}{
		{"no first window: the idle one", llmhttp.Windows{Idle: 10 * time.Second}, nil,
			10 * time.Second, "no data from p for 10s (idle timeout)"},
		{"the first window before any progress", llmhttp.Windows{Idle: 10 * time.Second, First: time.Minute}, nil,
			time.Minute, "no data from p for 1m0s (idle timeout)"},
		{"the idle window once progress came", llmhttp.Windows{Idle: 10 * time.Second, First: time.Minute}, []time.Duration{59 * time.Second},
			69 * time.Second, "no data from p for 10s (idle timeout)"},
		{"a first window shorter than the idle one", llmhttp.Windows{Idle: time.Minute, First: 5 * time.Second}, []time.Duration{4 * time.Second},
			64 * time.Second, "no data from p for 1m0s (idle timeout)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clock := llmhttptest.NewClock(start)
			d := llmhttp.NewWatchdog(context.Background(), "p", c.windows, clock)
			defer d.Stop()
			at := time.Duration(0)
			for _, p := range c.progress {
				clock.Advance(p - at)
				at = p
				piece(d, true)
			}
			clock.Advance(10 * time.Minute)
			if fired := clock.Fired(); len(fired) != 1 || !fired[0].Equal(start.Add(c.wantFired)) {
				t.Fatalf("fired at %v, want +%v", fired, c.wantFired)
			}
			if e := d.IdleFailure(); e.Message != c.wantMsg {
				t.Fatalf("message %q, want %q", e.Message, c.wantMsg)
			}
		})
	}
}

func TestWatchdogPauseHoldsTheWindow(t *testing.T) {
	// A consumer that takes longer than the window over a keep-alive does not
	// count against the server, nor does it give it a fresh window.
	clock := llmhttptest.NewClock(start)
	d := llmhttp.NewWatchdog(context.Background(), "p", llmhttp.Windows{Idle: 10 * time.Second}, clock)
	defer d.Stop()
	clock.Advance(4 * time.Second)
	d.Pause()
	clock.Advance(time.Hour)
	d.Resume(false)
	clock.Advance(5 * time.Second)
	if d.Context().Err() != nil {
		t.Fatal("the pause counted as silence")
	}
	clock.Advance(time.Second)
	if !d.TimedOut() {
		t.Fatal("the keep-alive gave the window a fresh start")
	}
}

func TestExchangeCountsKeepAliveLines(t *testing.T) {
	body := ": keep-alive\n\n: OPENROUTER PROCESSING\r\n\r\nevent: ping\ndata: {\"type\": \"ping\"}\n\n" +
		"event: pings\ndata: {}\n\nevent: message_start\ndata: {}\n\n"
	x := llmhttp.Start(context.Background(), "p", llmhttp.Windows{Idle: time.Hour}, llmhttptest.NewClock(start))
	defer x.Stop()
	resp, _ := x.Middleware(nil, func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{"Set-Cookie": {"a=b"}, "X-Request-Id": {"r1"}},
			Body: io.NopCloser(strings.NewReader(body))}, nil
	})
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatal(err)
	}
	if e := x.IdleFailure(); !strings.Contains(e.Message, "3 keep-alives") {
		t.Errorf("message %q, want 3 keep-alives counted", e.Message)
	}
	if h := http.Header(x.Header()); h.Get("X-Request-Id") != "r1" || h.Get("Set-Cookie") != "" {
		t.Errorf("kept headers %v", h)
	}
}

func TestFailureKeepsTheHeaders(t *testing.T) {
	x := llmhttp.Start(context.Background(), "p", llmhttp.Windows{Idle: time.Hour}, nil)
	defer x.Stop()
	_, _ = x.Middleware(nil, func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"120"}},
			Body: io.NopCloser(strings.NewReader(`{"error":{"message":"slow down"}}`))}, nil
	})
	e := x.Failure(io.EOF)
	if e.Status != 429 || http.Header(e.Header).Get("Retry-After") != "120" {
		t.Fatalf("failure %+v", e)
	}
}
