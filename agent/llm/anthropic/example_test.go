package anthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/anthropic"
)

// A provider (here pointed at a stand-in that streams one short answer) is
// used through its Stream method, an agent.StreamFn.
func ExampleProvider_Stream() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range []string{
			`{"type":"message_start","message":{"usage":{"input_tokens":12,"output_tokens":1}}}`,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Olá!"}}`,
			`{"type":"content_block_stop","index":0}`,
			`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":4}}`,
			`{"type":"message_stop"}`,
		} {
			var head struct{ Type string }
			_ = json.Unmarshal([]byte(ev), &head)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", head.Type, ev)
		}
	}))
	defer srv.Close()

	p, err := anthropic.New(anthropic.Config{BaseURL: srv.URL, APIKey: "sk-ant-example"})
	if err != nil {
		panic(err)
	}
	var stream agent.StreamFn = p.Stream
	s := stream(context.Background(), agent.Model{Provider: "anthropic", ID: "claude-sonnet-4-5"},
		agent.LLMContext{Messages: []agent.Message{agent.UserMessage("Say hi in Portuguese", time.Now())}},
		agent.StreamOptions{})
	for ev := range s.Events() {
		if ev.Type == agent.EventTextDelta {
			fmt.Print(ev.Delta)
		}
	}
	msg, _ := s.Result(context.Background())
	fmt.Println("", msg.StopReason)
	// Output: Olá! stop
}
