package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools"
)

// taskTool starts a sub-agent.
type taskTool struct{ s *subagents }

func (taskTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{Name: TaskToolName,
		Description: "Delegate a self-contained task to a sub-agent that works in its own session with the same tools. " +
			"It returns at once with the sub-agent's session id; the sub-agent's final answer arrives later in this " +
			"conversation as a message, so do not wait or poll for it. Several task calls in one turn run in parallel.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"task":{"type":"string","description":"The complete instructions for the sub-agent: it sees nothing else of this conversation."}},"required":["task"],"additionalProperties":false}`)}
}

// Describe lets the approval gate run it without asking: starting a child
// changes nothing; the child's own tools are gated in its session.
func (taskTool) Describe(args map[string]any) tools.Access {
	task, _ := args["task"].(string)
	return tools.Access{Tool: TaskToolName, Summary: "delegate: " + firstLine(task)}
}

func (t taskTool) Execute(ctx context.Context, _ string, args map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
	task, _ := args["task"].(string)
	if strings.TrimSpace(task) == "" {
		return agent.ErrorResult("task is empty: give the sub-agent its complete instructions"), nil
	}
	id, err := t.s.start(ctx, task)
	if err != nil {
		return agent.ToolResult{}, fmt.Errorf("the sub-agent could not start: %w", err)
	}
	return agent.ToolResult{Content: []agent.Content{agent.Text(fmt.Sprintf(
		"Started a sub-agent in session %s. Its answer will arrive as a message when it finishes.", id))},
		Details: TaskDetails{SessionID: id}}, nil
}
