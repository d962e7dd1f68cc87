package agent_test

import (
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// TestPlainTextToolCallIsRun: a tool call the model wrote as text is run as
// a real one, and the run goes on from its result.
func TestPlainTextToolCallIsRun(t *testing.T) {
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().Text(`<tool_call>{"name":"echo","arguments":{"text":"hi"}}</tool_call>`).Stop(agent.StopReasonStop),
		agenttest.Reply().Text("done").Stop(agent.StopReasonStop),
	), echoTool("echo"))
	if err := f.agent.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	f.wait(t)
	msgs := f.agent.State().Messages
	equalTraces(t, texts(msgs), []string{"go", "", "hi", "done"})
	calls := msgs[1].ToolCalls()
	if msgs[1].StopReason != agent.StopReasonToolUse || len(calls) != 1 || calls[0].Name != "echo" || msgs[2].ToolCallID != calls[0].ID {
		t.Fatalf("the answer is %s with calls %+v, result for %q", msgs[1].StopReason, calls, msgs[2].ToolCallID)
	}
}
