package scripted

import (
	"context"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmhttp"
)

// endsWithin drains stream, failing with every goroutine's stack when it has
// not ended within d: a provider without a watchdog hangs for ever.
func endsWithin(t *testing.T, d time.Duration, stream *agent.AssistantStream) agent.Message {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range stream.Events() {
		}
	}()
	select {
	case <-done:
	case <-time.After(d):
		buf := make([]byte, 1<<20)
		t.Fatalf("the stream did not end within %s:\n%s", d, buf[:runtime.Stack(buf, true)])
	}
	msg, err := stream.Result(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return msg
}

// TestIdleHangScenarioTimesOut rehearses `steer run --scenario idle-hang`:
// the hanging response ends with the HTTP providers' idle-timeout error
// once the window has passed, and the next request gets an answer.
func TestIdleHangScenarioTimesOut(t *testing.T) {
	sc, err := LoadScenario("idle-hang")
	if err != nil {
		t.Fatal(err)
	}
	const idle = 100 * time.Millisecond
	p := New(Options{Scenario: sc, IdleTimeout: idle, Now: fixedNow})
	start := time.Now()
	msg := endsWithin(t, 5*time.Second, p.Stream(context.Background(), DefaultModel(), llmOf(user("hi")), agent.StreamOptions{}))
	if elapsed := time.Since(start); elapsed < idle {
		t.Errorf("ended after %s, before the idle window", elapsed)
	}
	want := &agent.ProviderError{Kind: agent.ErrorTimeout, Message: "no data from scripted for 100ms (idle timeout)",
		Header: map[string][]string{}}
	if msg.StopReason != agent.StopReasonError || !reflect.DeepEqual(msg.Error, want) {
		t.Fatalf("stop %s error %+v, want error %+v", msg.StopReason, msg.Error, want)
	}
	if http := llmhttp.IdleError("scripted", idle, 0); msg.Error.Kind != http.Kind || msg.Error.Message != http.Message {
		t.Errorf("error %+v differs from the HTTP providers' %+v", msg.Error, http)
	}
	if next := endsWithin(t, 5*time.Second, p.Stream(context.Background(), DefaultModel(), llmOf(user("hi")), agent.StreamOptions{})); next.StopReason != agent.StopReasonStop {
		t.Errorf("the next request: stop %s (%s)", next.StopReason, next.ErrorMessage)
	}
}

func TestIdleTimeoutDefault(t *testing.T) {
	for _, opts := range []Options{{}, DefaultOptions()} {
		if got := New(opts).opts.IdleTimeout; got != DefaultIdleTimeout {
			t.Errorf("IdleTimeout = %s, want %s", got, DefaultIdleTimeout)
		}
	}
}

// TestWatchdogCountsProgress: the window runs from the last chunk, so a
// steady stream longer than the window is not cut, while a pause between two
// chunks longer than the window is silence.
func TestWatchdogCountsProgress(t *testing.T) {
	t.Run("steady stream longer than the window", func(t *testing.T) {
		// 150 chunks 10 ms apart take 1.5 s; no gap comes near 1 s, even on
		// a loaded machine.
		text := strings.Repeat("x", 150)
		p := New(Options{IdleTimeout: time.Second, ChunkSize: 1, Pace: 100, Now: fixedNow,
			Scenario: &Scenario{Steps: []Step{{Text: text}}}})
		msg := endsWithin(t, 20*time.Second, p.Stream(context.Background(), DefaultModel(), llmOf(user("x")), agent.StreamOptions{}))
		if msg.StopReason != agent.StopReasonStop || msg.TextContent() != text {
			t.Fatalf("stop %s text %q (%s)", msg.StopReason, msg.TextContent(), msg.ErrorMessage)
		}
	})
	t.Run("a pace slower than the window", func(t *testing.T) {
		p := New(Options{IdleTimeout: 50 * time.Millisecond, ChunkSize: 4, Pace: 0.5, Now: fixedNow,
			Scenario: &Scenario{Steps: []Step{{Text: "abcdefgh"}}}})
		msg := endsWithin(t, 5*time.Second, p.Stream(context.Background(), DefaultModel(), llmOf(user("x")), agent.StreamOptions{}))
		if msg.StopReason != agent.StopReasonError || msg.Error.Kind != agent.ErrorTimeout || msg.TextContent() != "abcd" {
			t.Fatalf("stop %s text %q error %+v", msg.StopReason, msg.TextContent(), msg.Error)
		}
	})
	t.Run("the step's window overrides the provider's", func(t *testing.T) {
		p := New(Options{IdleTimeout: time.Hour, Now: fixedNow,
			Scenario: &Scenario{Steps: []Step{{Text: "Wait", Fault: FaultHang, IdleTimeoutMS: 20}}}})
		msg := endsWithin(t, 5*time.Second, p.Stream(context.Background(), DefaultModel(), llmOf(user("x")), agent.StreamOptions{}))
		if msg.Error == nil || msg.Error.Message != "no data from scripted for 20ms (idle timeout)" || msg.TextContent() != "Wait" {
			t.Fatalf("stop %s text %q error %+v", msg.StopReason, msg.TextContent(), msg.Error)
		}
	})
}

// TestWatchdogIgnoresSlowConsumer: time spent waiting for a consumer that
// does not read is not the provider's silence.
func TestWatchdogIgnoresSlowConsumer(t *testing.T) {
	text := strings.Repeat("y", 200) // more chunks than the stream buffers
	p := New(Options{IdleTimeout: 300 * time.Millisecond, ChunkSize: 1, Now: fixedNow,
		Scenario: &Scenario{Steps: []Step{{Text: text}}}})
	stream := p.Stream(context.Background(), DefaultModel(), llmOf(user("x")), agent.StreamOptions{})
	time.Sleep(time.Second) // a consumer busy elsewhere, not a synchronisation
	msg := endsWithin(t, 5*time.Second, stream)
	if msg.StopReason != agent.StopReasonStop || msg.TextContent() != text {
		t.Fatalf("stop %s (%s), %d of %d runes", msg.StopReason, msg.ErrorMessage, len(msg.TextContent()), len(text))
	}
}
