package agent_test

import (
	"context"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// TestStreamContractBreachesFailTheRun holds the loop to its wording and its
// lifecycle tail when a StreamFn breaks the contract: no stream at all, or a
// stream that ends without an assistant message. Each ends the run as a loop
// failure, not as a crash of the process.
func TestStreamContractBreachesFailTheRun(t *testing.T) {
	tests := []struct {
		name   string
		stream agent.StreamFn
		want   string
	}{
		{
			name: "no stream",
			stream: func(context.Context, agent.Model, agent.LLMContext, agent.StreamOptions) *agent.AssistantStream {
				return nil
			},
			want: "internal error: the provider returned no stream",
		},
		{
			name: "stream ends without a message",
			stream: func(context.Context, agent.Model, agent.LLMContext, agent.StreamOptions) *agent.AssistantStream {
				s := agent.NewAssistantStream()
				s.End(agent.Message{})
				return s
			},
			want: "internal error: the provider ended without a message",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := agent.New(agent.Config{Model: agenttest.Model, Stream: tt.stream, Now: agenttest.Clock})
			rec := &agenttest.Recorder{}
			a.Subscribe(rec.Record)
			if err := a.Prompt("hi"); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := a.WaitForIdle(ctx); err != nil {
				t.Fatalf("agent did not become idle: %v", err)
			}
			equalTraces(t, rec.Traces(true), loopFailureTail)
			msgs := a.State().Messages
			last := msgs[len(msgs)-1]
			if last.StopReason != agent.StopReasonError || last.ErrorMessage != tt.want {
				t.Errorf("last message = %s %q, want error %q", last.StopReason, last.ErrorMessage, tt.want)
			}
		})
	}
}
