// Package scale builds large, realistic sessions in a steer store through
// its write API (the fenced appends and their search rows, compactions as
// context entries), for the benchmarks that hold steer to its scale
// targets (issue 27). It lives apart from persisttest because it imports
// persistence, whose own tests import persisttest.
package scale

import (
	"fmt"
	"strings"
	"time"

	"github.com/steer-tui/steer/agent"
)

// turnLength is how many messages one turn of Messages has: a prompt, an
// assistant message calling read, its result, one calling bash, its result
// and the answer.
const turnLength = 6

// Messages returns n messages in the pattern of a working session, turn
// after turn: the user asks, the assistant explains in markdown with a code
// block and calls read, the file comes back (about 3 KB), it calls bash, the
// output comes back (about 2 KB), and it answers with a list and a code
// block. Every text names its turn, so no two turns render alike, and
// words carries the topic of the session (a word search can find). Message
// i is stamped start plus i seconds.
func Messages(n int, topic string, start time.Time) []agent.Message {
	msgs := make([]agent.Message, 0, n)
	for i := 0; len(msgs) < n; i++ {
		for _, m := range turn(i, topic) {
			if len(msgs) == n {
				break
			}
			m.Timestamp = start.Add(time.Duration(len(msgs)) * time.Second)
			msgs = append(msgs, m)
		}
	}
	return msgs
}

// turn is turn i's six messages.
func turn(i int, topic string) [turnLength]agent.Message {
	readID, bashID := fmt.Sprintf("call_%d_read", i), fmt.Sprintf("call_%d_bash", i)
	path := fmt.Sprintf("internal/%s/file%d.go", topic, i%97)
	return [turnLength]agent.Message{
		agent.UserMessage(fmt.Sprintf("Turn %d: the %s tests fail after the last change to %s. "+
			"Please find out why, fix it and tell me what you changed.", i, topic, path), time.Time{}),
		assistant(agent.StopReasonToolUse, fmt.Sprintf("## Looking at %s (turn %d)\n\n"+
			"The failure points at **%s**. I will read the file first; the suspect is the loop in `step%d`:\n\n"+
			"```go\nfor i := range items {\n\tif err := step%d(items[i]); err != nil {\n\t\treturn err\n\t}\n}\n```\n",
			topic, i, path, i, i),
			agent.ToolCall(readID, "read", map[string]any{"path": path})),
		toolResult(readID, "read", goFile(i, topic, 60)),
		assistant(agent.StopReasonToolUse, "The file reads as expected; now the tests, to see the failure itself.",
			agent.ToolCall(bashID, "bash", map[string]any{"command": fmt.Sprintf("go test ./internal/%s/... -run TestStep%d", topic, i)})),
		toolResult(bashID, "bash", testOutput(i, topic, 30)),
		assistant(agent.StopReasonStop, fmt.Sprintf("Fixed in turn %d. What changed:\n\n"+
			"- `step%d` returned early on an empty %s item;\n- the loop now skips it and the test covers it;\n"+
			"- nothing else in *%s* depends on the old behaviour.\n\n"+
			"```go\nfunc step%d(it item) error {\n\tif it.empty() {\n\t\treturn nil\n\t}\n\treturn it.apply()\n}\n```\n\n"+
			"The whole package passes again, %d tests in all.", i, i, topic, path, i, 40+i%13)),
	}
}

func assistant(stop agent.StopReason, text string, calls ...agent.Content) agent.Message {
	return agent.Message{
		Role: agent.RoleAssistant, Content: append([]agent.Content{agent.Text(text)}, calls...),
		API: "openai-completions", Provider: "scripted", Model: "scale",
		Usage:      agent.Usage{Input: 1200, Output: 180, CacheRead: 800, Cost: agent.Cost{Total: 0.002}},
		StopReason: stop,
	}
}

func toolResult(id, name, text string) agent.Message {
	return agent.Message{Role: agent.RoleToolResult, Content: []agent.Content{agent.Text(text)}, ToolCallID: id, ToolName: name}
}

// goFile is lines lines of a Go source file, about 50 bytes each.
func goFile(i int, topic string, lines int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\n", topic)
	for l := 2; l < lines; l++ {
		fmt.Fprintf(&b, "\tv%d := compute(%d, %q) // line %d\n", l, i*lines+l, topic, l)
	}
	return b.String()
}

// testOutput is lines lines of `go test -v` output ending in a failure.
func testOutput(i int, topic string, lines int) string {
	var b strings.Builder
	for l := 0; l < lines-2; l++ {
		fmt.Fprintf(&b, "=== RUN   TestStep%d/case_%d\n", i, l)
	}
	fmt.Fprintf(&b, "--- FAIL: TestStep%d (0.%02ds)\nFAIL\tgithub.com/example/%s\t0.%03ds\n", i, i%100, topic, i%1000)
	return b.String()
}
