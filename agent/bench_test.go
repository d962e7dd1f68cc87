package agent_test

import (
	"context"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

const benchDeltas = 100_000

// deltaStream streams n one-word text deltas as fast as the consumer takes them.
func deltaStream(n int) agent.StreamFn {
	return func(ctx context.Context, model agent.Model, _ agent.LLMContext, _ agent.StreamOptions) *agent.AssistantStream {
		stream := agent.NewAssistantStream()
		go func() {
			w := agent.NewStreamWriter(ctx, stream, model, agenttest.Epoch)
			w.Start()
			for i := 0; i < n; i++ {
				w.TextDelta("word ")
			}
			w.Finish(agent.StopReasonStop)
		}()
		return stream
	}
}

// BenchmarkLoopDeltas pushes 100k text deltas through the loop and the Agent to
// one subscriber and reports the throughput in deltas per second.
func BenchmarkLoopDeltas(b *testing.B) {
	b.ReportAllocs()
	var total int
	for i := 0; i < b.N; i++ {
		a := agent.New(agent.Config{Model: agenttest.Model, Stream: deltaStream(benchDeltas), Now: agenttest.Clock})
		seen := 0
		a.Subscribe(func(ev agent.Event) {
			if u, ok := ev.(agent.MessageUpdate); ok && u.Event.Type == agent.EventTextDelta {
				seen++
			}
		})
		if err := a.Prompt("go"); err != nil {
			b.Fatal(err)
		}
		if err := a.WaitForIdle(context.Background()); err != nil {
			b.Fatal(err)
		}
		if seen != benchDeltas {
			b.Fatalf("subscriber saw %d deltas, want %d", seen, benchDeltas)
		}
		total += seen
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "deltas/s")
}
