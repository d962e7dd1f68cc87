package runner

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmtest"
	"github.com/steer-tui/steer/agent/llm/openai"
	"github.com/steer-tui/steer/failover"
)

// The attempt loop is itself a StreamFn (Runtime.attemptStream: the guard,
// the lanes and the attempts), so it is held to the provider contract suite
// like the providers it wraps: over a real provider talking to the suite's
// servers it must still end with one done or error, abort promptly, resolve
// when closed early and serve concurrent calls.

// contractModel is the model the suite asks, served by an openai provider.
var contractModel = agent.Model{Provider: "openai", ID: "gpt-test", API: "openai-completions"}

// contractWire is how Chat Completions streams text.
var contractWire = llmtest.Wire{
	Text: func(s string) string {
		return `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":` +
			llmtest.JSONString(s) + `},"finish_reason":null}]}` + "\n\n"
	},
	Tail: `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` +
		"\n\ndata: [DONE]\n\n",
}

func contractErrorJSON(typ, code, message string) string {
	e := map[string]any{"message": message, "type": typ}
	if code != "" {
		e["code"] = code
	}
	raw, _ := json.Marshal(map[string]any{"error": e})
	return string(raw)
}

// contractRuntime is a runtime whose one provider is connected as c says,
// over ledger, on a clock that only its waits move: retries and cooldown
// waits take no time.
func contractRuntime(t *testing.T, c llmtest.Conn, ledger failover.Ledger) (*Runtime, error) {
	p, err := openai.New(openai.Config{BaseURL: c.URL, APIKey: c.APIKey, IdleTimeout: c.IdleTimeout, HTTPClient: c.HTTPClient, Now: llmtest.Clock})
	if err != nil {
		return nil, err
	}
	clock := &fakeClock{now: llmtest.Epoch}
	rt, err := New(context.Background(), Options{
		Providers: []Provider{{Name: contractModel.Provider, Models: []agent.Model{contractModel}, Stream: p.Stream}},
		Now:       clock.Now, Sleep: clock.Sleep, Ledger: ledger,
	})
	if err != nil {
		return nil, err
	}
	stopOnCleanup(t, rt)
	return rt, nil
}

// withoutAnnotations is fn's stream without its annotations: run events
// that change nothing of the message (agent.EventAnnotation), which the
// suite's shape checks do not know. Closing the returned stream stops the
// hand-over, not the reading of fn's stream, so fn's producer never waits.
func withoutAnnotations(fn agent.StreamFn) agent.StreamFn {
	return func(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
		src := fn(ctx, m, llm, opts)
		out := agent.NewAssistantStream()
		go func() {
			defer out.End(agent.Message{})
			for ev := range src.Events() {
				if ev.Type != agent.EventAnnotation {
					out.Push(context.Background(), ev)
				}
			}
		}()
		return out
	}
}

// TestAttemptStreamKeepsTheProviderContract: a runtime's attemptStream is
// its session's, which the loop calls one request at a time (a run holds
// the session's lane from its first request to its agent_end), so each call
// the suite makes goes to a session of its own, as calls at once come from
// several sessions. They share one ledger, as a host's sessions do.
func TestAttemptStreamKeepsTheProviderContract(t *testing.T) {
	llmtest.RunContract(t, llmtest.ContractHarness{
		Model: contractModel,
		Open: func(c llmtest.Conn) (agent.StreamFn, error) {
			ledger := &failover.MemLedger{}
			if _, err := contractRuntime(t, c, ledger); err != nil { // the error the configuration gives
				return nil, err
			}
			return func(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
				rt, err := contractRuntime(t, c, ledger)
				if err != nil {
					t.Error(err)
					return nil
				}
				return withoutAnnotations(rt.attemptStream)(ctx, m, llm, opts)
			}, nil
		},
		Wire:      contractWire,
		ErrorJSON: contractErrorJSON,
		// A 503 on the only profile ends, once its cooldown waits are spent,
		// with the loop's note of until when the profile cools down.
		NotedErrors: true,
	})
}

// TestAttemptStreamAnnotatesItsAttempts: what withoutAnnotations leaves out
// is there — the attempt's start and end around the answer — so the suite
// above checks a stream that went through the attempt loop.
func TestAttemptStreamAnnotatesItsAttempts(t *testing.T) {
	srv := llmtest.SSEServer(t, []byte(contractWire.Reply("Hel", "lo")), false)
	rt, err := contractRuntime(t, llmtest.Conn{URL: srv.URL}, &failover.MemLedger{})
	if err != nil {
		t.Fatal(err)
	}
	events, msg := llmtest.Drain(t, rt.attemptStream(context.Background(), contractModel, llmtest.Prompt, agent.StreamOptions{}))
	var kinds []string
	for _, ev := range events {
		if ev.Type == agent.EventAnnotation {
			kinds = append(kinds, ev.Annotation.Kind)
		}
	}
	want := []string{AnnotationAttemptStart, AnnotationAttemptEnd}
	if !slices.Equal(kinds, want) || msg.TextContent() != "Hello" {
		t.Errorf("annotations %v, text %q; want %v and %q", kinds, msg.TextContent(), want, "Hello")
	}
}
