package agent_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// stopAsker is a BeforeStop that answers from a list, once per call, and
// records the answers it was asked about.
type stopAsker struct {
	mu      sync.Mutex
	replies []string // "" ends the run
	asked   []string
}

func (s *stopAsker) ask(_ context.Context, answer agent.Message) []agent.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, answer.TextContent())
	if len(s.replies) == 0 || s.replies[0] == "" {
		return nil
	}
	reply := s.replies[0]
	s.replies = s.replies[1:]
	return []agent.Message{agent.UserMessage(reply, agenttest.Epoch)}
}

func TestBeforeStop(t *testing.T) {
	cases := []struct {
		name     string
		script   []*agenttest.Response
		input    agent.QueueItem
		replies  []string
		asked    []string // the answers BeforeStop saw
		messages string   // the transcript after the run
	}{
		{
			name:     "an answer is asked about and the run ends",
			script:   []*agenttest.Response{agenttest.Reply().Text("done").Stop(agent.StopReasonStop)},
			input:    agent.QueueItem{Kind: agent.QueueFollowUp, Text: "go"},
			asked:    []string{"done"},
			messages: "go|done",
		},
		{
			name: "its messages go on with the run",
			script: []*agenttest.Response{
				agenttest.Reply().Text("done").Stop(agent.StopReasonStop),
				agenttest.Reply().Text("really done").Stop(agent.StopReasonStop),
			},
			input:    agent.QueueItem{Kind: agent.QueueFollowUp, Text: "go"},
			replies:  []string{"tests fail: fix them"},
			asked:    []string{"done", "really done"},
			messages: "go|done|tests fail: fix them|really done",
		},
		{
			name: "only the final answer, not a turn that called tools",
			script: []*agenttest.Response{
				agenttest.Reply().ToolCall("c1", "echo", `{"text":"echoed"}`).Stop(agent.StopReasonToolUse),
				agenttest.Reply().Text("after the tool").Stop(agent.StopReasonStop),
			},
			input:    agent.QueueItem{Kind: agent.QueueFollowUp, Text: "go"},
			asked:    []string{"after the tool"},
			messages: "go||echoed|after the tool",
		},
		{
			name:     "not after an error",
			script:   []*agenttest.Response{agenttest.Reply().Fail(&agent.ProviderError{Message: "boom"})},
			input:    agent.QueueItem{Kind: agent.QueueFollowUp, Text: "go"},
			messages: "go|",
		},
		{
			name:     "not after the user's shell command, which the model did not see",
			input:    agent.QueueItem{Kind: agent.QueueShell, Text: "true"},
			messages: "",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			script := agenttest.NewScript(c.script...)
			asker := &stopAsker{replies: c.replies}
			set, err := agent.NewToolSet(echoTool("echo"))
			if err != nil {
				t.Fatal(err)
			}
			a := agent.New(agent.Config{Model: agenttest.Model, Stream: script.Stream, Tools: set,
				Now: agenttest.Clock, BeforeStop: asker.ask})
			a.Deliver(c.input)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := a.WaitForIdle(ctx); err != nil {
				t.Fatal(err)
			}
			if got, want := strings.Join(asker.asked, "|"), strings.Join(c.asked, "|"); got != want {
				t.Errorf("asked about %q, want %q", got, want)
			}
			if c.messages != "" {
				if got := strings.Join(texts(a.State().Messages), "|"); got != c.messages {
					t.Errorf("messages = %q, want %q", got, c.messages)
				}
			}
		})
	}
}

// TestBeforeStopNotAfterAbort: an aborted run ends without asking.
func TestBeforeStopNotAfterAbort(t *testing.T) {
	script := agenttest.NewScript(agenttest.Reply().Text("partial").Hang())
	asker := &stopAsker{}
	a := agent.New(agent.Config{Model: agenttest.Model, Stream: script.Stream, Now: agenttest.Clock, BeforeStop: asker.ask})
	started := waitForEvent(a, "message_update text_delta")
	if err := a.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	within(t, started, "streaming to start")
	a.Abort()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.WaitForIdle(ctx); err != nil {
		t.Fatal(err)
	}
	if len(asker.asked) != 0 {
		t.Errorf("asked about %q after an abort", asker.asked)
	}
}
