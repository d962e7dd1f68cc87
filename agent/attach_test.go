package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// TestAttachMissesNoEvent attaches while a run streams: the snapshot's
// streaming text plus the text of the deltas fn gets afterwards spell the
// whole answer, whatever point of the stream the attach lands on.
func TestAttachMissesNoEvent(t *testing.T) {
	const answer = "one two three four five six seven eight nine ten"
	for at := 0; at < 6; at++ {
		gate := make(chan struct{})
		a := agent.New(agent.Config{Model: agent.Model{ID: "m", Provider: "p"}, Stream: gatedWords(answer, at, gate)})
		started := make(chan struct{})
		unsub := a.Subscribe(func(ev agent.Event) {
			if _, ok := ev.(agent.MessageStart); ok {
				select {
				case <-started:
				default:
					if ev.(agent.MessageStart).Message.Role == agent.RoleAssistant {
						close(started)
					}
				}
			}
		})
		if err := a.Prompt("hi"); err != nil {
			t.Fatal(err)
		}
		<-started
		var snapshot string
		var after string
		ended := make(chan struct{})
		a.Attach(func(s agent.State) {
			if s.Streaming != nil {
				snapshot = s.Streaming.TextContent()
			}
		}, func(ev agent.Event) {
			switch e := ev.(type) {
			case agent.MessageUpdate:
				if e.Event.Type == agent.EventTextDelta {
					after += e.Event.Delta
				}
			case agent.AgentEnd:
				close(ended)
			}
		})
		close(gate)
		<-ended
		unsub()
		if err := a.WaitForIdle(context.Background()); err != nil {
			t.Fatal(err)
		}
		if snapshot+after != answer {
			t.Errorf("attach after %d words: snapshot %q + events %q, want %q", at, snapshot, after, answer)
		}
	}
}

// gatedWords streams answer word by word, holding after the first at words
// until gate is closed.
func gatedWords(answer string, at int, gate <-chan struct{}) agent.StreamFn {
	return func(ctx context.Context, model agent.Model, _ agent.LLMContext, _ agent.StreamOptions) *agent.AssistantStream {
		stream := agent.NewAssistantStream()
		go func() {
			w := agent.NewStreamWriter(ctx, stream, model, agenttest.Epoch)
			w.Start()
			for i, word := range strings.SplitAfter(answer, " ") {
				if i == at {
					<-gate
				}
				w.TextDelta(word)
			}
			w.Finish(agent.StopReasonStop)
		}()
		return stream
	}
}
