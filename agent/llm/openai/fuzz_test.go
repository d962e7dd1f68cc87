package openai

import (
	"testing"

	"github.com/steer-tui/steer/agent/llm/llmtest"
)

// FuzzStream feeds arbitrary bytes to the provider as a 200 event-stream body
// (through a transport, without a network) and checks that it never panics
// and always ends the stream with a final message. The seed corpus in
// testdata/fuzz/FuzzStream holds the recorded streams.
func FuzzStream(f *testing.F) {
	f.Add([]byte(chunk(`{"content":"Hi"}`) + finish("stop") + done))
	f.Add([]byte(chunk(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"ls","arguments":"{\"p"}}]}`) + finish("tool_calls")))
	f.Add([]byte(": OPENROUTER PROCESSING\n\n" + chunk(`{"reasoning":"x"}`) + "data: {\"error\":{\"message\":\"boom\"}}\n\n"))
	f.Add([]byte("data: {\"choices\":[{\"delta\":{\"content\":\n\n"))
	f.Fuzz(func(t *testing.T, body []byte) { llmtest.FuzzBody(t, harness().ContractHarness, body) })
}
