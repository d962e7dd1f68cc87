package anthropic

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmtest"
)

var t0 = llmtest.Epoch

var testModel = agent.Model{Provider: "anthropic", ID: "claude-test", API: "anthropic-messages"}

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

func sse(event, data string) string { return "event: " + event + "\ndata: " + data + "\n\n" }

func messageStart(input, cacheRead, cacheWrite int) string {
	return sse("message_start", fmt.Sprintf(`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"usage":{"input_tokens":%d,"cache_read_input_tokens":%d,"cache_creation_input_tokens":%d,"output_tokens":1}}}`,
		input, cacheRead, cacheWrite))
}

func blockStart(i int, block string) string {
	return sse("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":%s}`, i, block))
}

func blockDelta(i int, delta string) string {
	return sse("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":%s}`, i, delta))
}

func blockStop(i int) string {
	return sse("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
}

func textDelta(i int, text string) string {
	return blockDelta(i, `{"type":"text_delta","text":`+llmtest.JSONString(text)+`}`)
}

func textBlock(i int, text string) string {
	return blockStart(i, `{"type":"text","text":""}`) + textDelta(i, text) + blockStop(i)
}

func messageEnd(stop string, output int) string {
	return sse("message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":%d}}`, stop, output)) +
		sse("message_stop", `{"type":"message_stop"}`)
}

// wire is how Messages streams text: one text block.
var wire = llmtest.Wire{
	Head: messageStart(10, 0, 0) + blockStart(0, `{"type":"text","text":""}`),
	Text: func(s string) string { return textDelta(0, s) },
	Tail: blockStop(0) + messageEnd("end_turn", 10),
}
