package scripted_test

import (
	"context"
	"fmt"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/scripted"
)

func ExampleProvider_Stream() {
	p := scripted.New(scripted.Options{}) // unpaced; the TUI uses scripted.DefaultOptions()
	var stream agent.StreamFn = p.Stream

	llm := agent.LLMContext{
		Messages: []agent.Message{agent.UserMessage("run go version", time.Time{})},
		Tools:    []agent.ToolSpec{{Name: "bash"}},
	}
	s := stream(context.Background(), scripted.DefaultModel(), llm, agent.StreamOptions{})
	for range s.Events() {
	}
	msg, _ := s.Result(context.Background())
	call := msg.ToolCalls()[0]
	fmt.Println(msg.TextContent())
	fmt.Println(call.Name, call.Arguments["command"], msg.StopReason)
	// Output:
	// Running `go version`.
	// bash go version toolUse
}
