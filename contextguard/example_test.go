package contextguard_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/contextguard"
)

// A long build log that ends in an error keeps its head and its tail.
func ExampleTruncateToolResult() {
	var log strings.Builder
	for i := range 2_000 {
		fmt.Fprintf(&log, "compiling module_%04d\n", i)
	}
	log.WriteString("error: module_1999 does not link\n")

	out := contextguard.TruncateToolResult(log.String(), 8_000)
	fmt.Println(len(out) <= 8_000+len("\n\n[... 40000 more characters truncated]"))
	fmt.Println(strings.HasPrefix(out, "compiling module_0000"))
	fmt.Println(strings.Contains(out, contextguard.MiddleMarker))
	fmt.Println(strings.Contains(out, "error: module_1999 does not link"))
	fmt.Println(out[strings.LastIndex(out, "\n")+1:])
	fmt.Println(contextguard.TruncateToolResult(out, 8_000) == out)
	// Output:
	// true
	// true
	// true
	// true
	// [... 36147 more characters truncated]
	// true
}

// The guard as a transformContext: what the provider gets fits the model,
// and the transcript stays as it was.
func ExampleGuard_Apply() {
	transcript := []agent.Message{
		agent.UserMessage("read the log", time.Time{}),
		{Role: agent.RoleAssistant, Content: []agent.Content{agent.ToolCall("c1", "read", map[string]any{"path": "build.log"})}},
		{Role: agent.RoleToolResult, ToolCallID: "c1", ToolName: "read", Content: []agent.Content{agent.Text(strings.Repeat("line\n", 60_000))}},
	}
	guard := contextguard.NewGuard(contextguard.NewEstimator())
	model := agent.Model{ContextWindow: 8_192, MaxOutput: 1_024}

	sent, report := guard.Apply(agent.LLMContext{Messages: transcript}, contextguard.BudgetFor(model, agent.StreamOptions{}))
	fmt.Println(report.Truncated, report.Compacted, report.Fits)
	fmt.Println(len(sent.Messages[2].TextContent()) < 5_000, len(transcript[2].TextContent()))
	// Output:
	// 1 0 true
	// true 300000
}
