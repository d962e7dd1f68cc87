package openai_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/openai"
)

// A provider pointed at an OpenAI-compatible server (here a stand-in that
// streams one short answer) is used through its Stream method, an
// agent.StreamFn.
func ExampleProvider_Stream() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"choices":[{"index":0,"delta":{"content":"Olá!"}}]}`+"\n\n"+
			`data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\n"+
			"data: [DONE]\n\n")
	}))
	defer srv.Close()

	p, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1"})
	if err != nil {
		panic(err)
	}
	var stream agent.StreamFn = p.Stream
	s := stream(context.Background(), agent.Model{Provider: "local", ID: "llama"},
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
