package contextguard

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// TestCompactSummaryTimeout: a summariser that never answers is cut off at
// the compaction's timeout: its request's context is cancelled, and the
// compaction fails with FailureSummaryTimeout (a failure the caller goes on
// from), whether or not the summariser honours the cancellation.
func TestCompactSummaryTimeout(t *testing.T) {
	const limit = 5 * time.Millisecond
	cases := []struct {
		name string
		// honours: the summariser returns once its context ends; else it
		// blocks until the test ends.
		honours bool
	}{
		{"a summariser that honours its context", true},
		{"a summariser that ignores it", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cancelled := make(chan error, 1)
			summarize := func(ctx context.Context, _ agent.LLMContext, _ int) (string, error) {
				if c.honours {
					<-ctx.Done()
					cancelled <- context.Cause(ctx)
					return "", ctx.Err()
				}
				<-t.Context().Done()
				return "late", nil
			}
			_, err := Compact(context.Background(), longSession(12), CompactOptions{Summarize: summarize, Timeout: limit})
			var ce *CompactError
			if !errors.As(err, &ce) || ce.Failure != FailureSummaryTimeout || ce.Timeout != limit {
				t.Fatalf("error %v, want %s after %v", err, FailureSummaryTimeout, limit)
			}
			if !strings.Contains(err.Error(), "did not arrive within 5ms") {
				t.Fatalf("the failure reads %q", err)
			}
			if c.honours {
				if cause := <-cancelled; !errors.Is(cause, errSummaryTimedOut) {
					t.Fatalf("the request was ended by %v, want the timeout", cause)
				}
			}
		})
	}
}

// TestCompactSummaryTimeoutIsNotTheCallersAbort: the caller's cancellation
// during the summary is returned as it is, not as a timeout.
func TestCompactSummaryTimeoutIsNotTheCallersAbort(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	summarize := func(sctx context.Context, _ agent.LLMContext, _ int) (string, error) {
		cancel()
		<-sctx.Done()
		return "", sctx.Err()
	}
	_, err := Compact(ctx, longSession(12), CompactOptions{Summarize: summarize, Timeout: time.Hour})
	var ce *CompactError
	if !errors.Is(err, context.Canceled) || errors.As(err, &ce) {
		t.Fatalf("error %v, want the cancellation as it is", err)
	}
}

// TestSummaryRequestHasNoToolsAndAsksForASummary: what the summariser is
// sent carries no tools (it must answer in text, not call anything) and its
// instruction asks for a summary in those words.
func TestSummaryRequestHasNoToolsAndAsksForASummary(t *testing.T) {
	for _, instructions := range []string{"", "focus on the ports"} {
		r := &recorder{reply: "## Goal\nfix the bugs\n"}
		if _, err := Compact(context.Background(), longSession(12), CompactOptions{Summarize: r.summarize, Instructions: instructions}); err != nil {
			t.Fatal(err)
		}
		if len(r.req.Tools) != 0 {
			t.Errorf("instructions %q: the summary request carries %d tools", instructions, len(r.req.Tools))
		}
		if len(r.req.Messages) != 1 || r.req.Messages[0].Role != agent.RoleUser {
			t.Fatalf("instructions %q: the summary request is %d messages, want one user message", instructions, len(r.req.Messages))
		}
		if !strings.Contains(r.prompt(), "Write a summary of the conversation above.") {
			t.Errorf("instructions %q: the instruction does not ask for a summary:\n%s", instructions, r.prompt())
		}
	}
}
