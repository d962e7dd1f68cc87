package openai

import (
	"context"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmtest"
)

var t0 = llmtest.Epoch

var testModel = agent.Model{Provider: "openai", ID: "gpt-test", API: "openai-completions"}

func newProvider(t testing.TB, cfg Config) *Provider {
	t.Helper()
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return t0 }
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// ask streams llmtest.Prompt from a provider configured by cfg.
func ask(t testing.TB, cfg Config) ([]agent.AssistantEvent, agent.Message) {
	t.Helper()
	p := newProvider(t, cfg)
	return llmtest.Drain(t, p.Stream(context.Background(), testModel, llmtest.Prompt, agent.StreamOptions{}))
}

func chunk(delta string) string {
	return `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":null}]}` + "\n\n"
}

func finish(reason string) string {
	return `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"` + reason + `"}]}` + "\n\n"
}

const done = "data: [DONE]\n\n"

// wire is how Chat Completions streams text.
var wire = llmtest.Wire{
	Text: func(s string) string { return chunk(`{"content":` + llmtest.JSONString(s) + `}`) },
	Tail: finish("stop") + done,
}
