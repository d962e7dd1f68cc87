package runner

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
)

func TestReadPlanning(t *testing.T) {
	cases := []struct {
		text string
		want planningVerdict
	}{
		{"", planningUndecided},
		{"Le", planningUndecided},
		{"  Let me", planningUndecided},
		{"Let me read the config first.", planningLikely},
		{"I'll check the tests, then fix the import.", planningLikely},
		{"The answer is 42.", planningNot},
		{"Lemons are yellow.", planningNot},
		{"Let me " + string(make([]byte, planningHoldChars)), planningNot},
	}
	for _, c := range cases {
		if got := readPlanning(c.text); got != c.want {
			t.Errorf("readPlanning(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

func TestIsPlan(t *testing.T) {
	cases := []struct {
		text string
		want bool
	}{
		{"Let me read the config first.", true},
		{"I'll run the tests and then look at the failure.", true},
		{"Let me know if you want more.", false},
		{"Shall I run the tests?", false},
		{"I'll do it. Should I also update the docs?", false},
		{"Let me show you:\n```go\nfmt.Println()\n```", false},
		{"Done: the tests pass.", false},
		{"", false},
	}
	for _, c := range cases {
		if got := isPlan(c.text); got != c.want {
			t.Errorf("isPlan(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// planner answers big's requests with answer, and small's with "ok".
type planner struct{ answer string }

func (p planner) stream(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
	return scripted(func(_ context.Context, w *agent.StreamWriter, m agent.Model, _ agent.StreamOptions) {
		if m.ID == "big" {
			w.TextDelta(p.answer)
		} else {
			w.TextDelta("ok")
		}
		w.Finish(agent.StopReasonStop)
	})(ctx, m, llm, opts)
}

// TestAPlanFallsBackLikeAnEmptyAnswer: an answer that only says what the
// model will do, with tools offered and another model to ask, is held back
// and falls back (planning_only_result); a short answer of another kind, or
// a plan with no model left to ask, goes out as it came.
func TestAPlanFallsBackLikeAnEmptyAnswer(t *testing.T) {
	cases := []struct {
		name      string
		answer    string
		fallbacks []string
		want      string
		result    string // big's attempt_end result
	}{
		{"a plan falls back", "Let me read the config first.", []string{"p/small"}, "ok", "planning_only_result"},
		{"a short answer stays", "The config is fine.", []string{"p/small"}, "The config is fine.", ""},
		{"a plan with no fallback stays", "Let me read the config first.", nil, "Let me read the config first.", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt, err := New(context.Background(), Options{
				Providers: []Provider{{Name: "p", Models: []agent.Model{primary, fallback}, Stream: planner{c.answer}.stream}},
				Model:     "p/big", Fallbacks: c.fallbacks, Tools: []agent.Tool{hugeTool{}}, Ledger: &failover.MemLedger{},
				Now: time.Now, Failover: noCooldownWait,
			})
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var results []string
			var texts strings.Builder
			rt.Subscribe(func(ev agent.Event) {
				mu.Lock()
				defer mu.Unlock()
				switch e := ev.(type) {
				case agent.Annotation:
					if info, ok := e.Data.(AttemptInfo); ok && e.Kind == AnnotationAttemptEnd && info.Model == "p/big" {
						results = append(results, info.Result)
					}
				case agent.MessageUpdate:
					if e.Event.Type == agent.EventTextDelta {
						texts.WriteString(e.Event.Delta)
					}
				}
			})
			if err := rt.Prompt(context.Background(), "check the config"); err != nil {
				t.Fatal(err)
			}
			waitIdle(t, rt)
			msgs := rt.State().Messages
			if got := msgs[len(msgs)-1].TextContent(); got != c.want {
				t.Fatalf("the answer is %q, want %q", got, c.want)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(results) != 1 || results[0] != c.result {
				t.Fatalf("big's attempt results %q, want [%q]", results, c.result)
			}
			if shown := texts.String(); shown != c.want {
				t.Fatalf("the front ends saw %q, want %q", shown, c.want)
			}
		})
	}
}
