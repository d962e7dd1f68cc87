package runner

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// TestThinkingDefaults: a session that chose no thinking level uses its
// model's own default (models[].thinking), else the agent's; a level the
// session chose outlasts a change of model; the request carries it.
func TestThinkingDefaults(t *testing.T) {
	deep := agent.Model{Provider: "p", ID: "deep", API: "test", Reasoning: true}
	plain := agent.Model{Provider: "p", ID: "plain", API: "test", Reasoning: true}
	tests := []struct {
		name  string
		start string
		do    func(rt *Runtime) error
		want  agent.ThinkingLevel
	}{
		{"the model's own default", "p/deep", nil, agent.ThinkingHigh},
		{"else the agent's", "p/plain", nil, agent.ThinkingLow},
		{"a change of model follows the new model's default", "p/deep",
			func(rt *Runtime) error { _, err := rt.SetModel(context.Background(), "p/plain"); return err }, agent.ThinkingLow},
		{"and back", "p/plain",
			func(rt *Runtime) error { _, err := rt.SetModel(context.Background(), "p/deep"); return err }, agent.ThinkingHigh},
		{"a chosen level outlasts a change of model", "p/deep", func(rt *Runtime) error {
			rt.SetThinking(agent.ThinkingMinimal)
			_, err := rt.SetModel(context.Background(), "p/plain")
			return err
		}, agent.ThinkingMinimal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var sent []agent.ThinkingLevel
			stream := scripted(func(_ context.Context, w *agent.StreamWriter, _ agent.Model, opts agent.StreamOptions) {
				mu.Lock()
				sent = append(sent, opts.Thinking)
				mu.Unlock()
				w.TextDelta("ok")
				w.Finish(agent.StopReasonStop)
			})
			rt, err := New(context.Background(), Options{
				Providers: []Provider{{Name: "p", Models: []agent.Model{deep, plain}, Stream: stream,
					Thinking: map[string]agent.ThinkingLevel{"deep": agent.ThinkingHigh}}},
				Model: tt.start, Thinking: agent.ThinkingLow, Now: time.Now,
			})
			if err != nil {
				t.Fatal(err)
			}
			if tt.do != nil {
				if err := tt.do(rt); err != nil {
					t.Fatal(err)
				}
			}
			if got := rt.State().Thinking; got != tt.want {
				t.Fatalf("thinking %s, want %s", got, tt.want)
			}
			if err := rt.Prompt(context.Background(), "hi"); err != nil {
				t.Fatal(err)
			}
			waitIdle(t, rt)
			mu.Lock()
			defer mu.Unlock()
			if len(sent) != 1 || sent[0] != tt.want {
				t.Fatalf("the request carried %v, want %s", sent, tt.want)
			}
		})
	}
}
