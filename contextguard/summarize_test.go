package contextguard

import (
	"context"
	"errors"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// finalStream is a StreamFn that streams one delta and then final, and
// records the options it was given.
func finalStream(final agent.Message, got *agent.StreamOptions) agent.StreamFn {
	return func(ctx context.Context, _ agent.Model, _ agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
		*got = opts
		s := agent.NewAssistantStream()
		go func() {
			s.Push(ctx, agent.AssistantEvent{Type: agent.EventTextDelta, Delta: final.TextContent()})
			ev := agent.AssistantEvent{Type: agent.EventDone, Partial: final, Reason: final.StopReason}
			if final.StopReason == agent.StopReasonError {
				ev.Type = agent.EventError
			}
			s.Push(ctx, ev)
			s.End(final)
		}()
		return s
	}
}

func TestStreamSummarizer(t *testing.T) {
	overloaded := &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 529, Message: "overloaded"}
	cases := []struct {
		name    string
		final   agent.Message
		want    string
		wantErr error
	}{
		{"stop", agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonStop, Content: []agent.Content{agent.Text("## Goal\nx")}}, "## Goal\nx", nil},
		{"cut by the output limit", agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonLength, Content: []agent.Content{agent.Text("## Goal\npart")}}, "## Goal\npart", nil},
		{"provider error", agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonError, ErrorMessage: "529 overloaded", Error: overloaded}, "", overloaded},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var opts agent.StreamOptions
			summarize := StreamSummarizer(finalStream(c.final, &opts), agent.Model{ID: "m"}, agent.StreamOptions{Profile: "p"})
			got, err := summarize(context.Background(), agent.LLMContext{}, 1_234)
			if opts.MaxTokens != 1_234 || opts.Profile != "p" {
				t.Fatalf("options %+v", opts)
			}
			if c.wantErr != nil {
				var se *StreamError
				if !errors.As(err, &se) || !errors.Is(err, c.wantErr) || se.Error() != "529 overloaded" {
					t.Fatalf("error %v", err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v", got, err)
			}
		})
	}
}
