package anthropic

import (
	"testing"

	"github.com/steer-tui/steer/agent/llm/llmtest"
)

// FuzzStream feeds arbitrary bytes to the provider as a 200 event-stream body
// (through a transport, without a network) and checks that it never panics
// and always ends the stream with a final message. The seed corpus in
// testdata/fuzz/FuzzStream holds the recorded streams.
func FuzzStream(f *testing.F) {
	f.Add([]byte(messageStart(1, 2, 3) + textBlock(0, "Hi") + messageEnd("end_turn", 2)))
	f.Add([]byte(messageStart(1, 0, 0) + blockStart(0, `{"type":"tool_use","id":"t","name":"ls","input":{}}`) +
		blockDelta(0, `{"type":"input_json_delta","partial_json":"{\"p"}`) + blockStop(0) + messageEnd("tool_use", 2)))
	f.Add([]byte(blockStart(0, `{"type":"redacted_thinking","data":"x"}`) + sse("error", `{"type":"error","error":{"type":"overloaded_error"}}`)))
	f.Add([]byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":\n\n"))
	f.Fuzz(func(t *testing.T, body []byte) { llmtest.FuzzBody(t, harness().ContractHarness, body) })
}
