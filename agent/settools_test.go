package agent_test

import (
	"context"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// TestSetToolsDuringARun: tools set while a run goes on (an MCP server's
// tools/list_changed) are offered from the run's next request on.
func TestSetToolsDuringARun(t *testing.T) {
	script := agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "grow", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("done").Stop(agent.StopReasonStop))
	var f *fixture
	grow := funcTool{name: "grow", run: func(context.Context, map[string]any, agent.ToolUpdate) (agent.ToolResult, error) {
		set, err := agent.NewToolSet(echoTool("grow"), echoTool("extra"))
		if err != nil {
			return agent.ToolResult{}, err
		}
		f.agent.SetTools(set)
		return agent.TextResult("grown"), nil
	}}
	f = newFixture(t, script, grow)
	if err := f.agent.Prompt("go"); err != nil {
		t.Fatal(err)
	}
	f.wait(t)
	reqs := script.Requests()
	if len(reqs) != 2 || len(reqs[0].Tools) != 1 || len(reqs[1].Tools) != 2 || reqs[1].Tools[1].Name != "extra" {
		t.Fatalf("tools per request: %+v", reqs)
	}
}
