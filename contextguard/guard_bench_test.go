package contextguard

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// transcript200k is a long agentic session of about 200k tokens: prompts,
// answers with thinking, tool calls with arguments, tool results of
// resultBytes (varied by up to 4 KB) and two oversized ones.
func transcript200k(resultBytes int) []agent.Message {
	var msgs []agent.Message
	at := t0
	for turn := 0; EstimateContext(agent.LLMContext{Messages: msgs}) < 200_000; turn++ {
		at = at.Add(time.Minute)
		msgs = append(msgs, userAt(fmt.Sprintf("step %d: now fix the next failing test in the parser package", turn), at))
		for call := range 4 {
			id := fmt.Sprintf("call-%d-%d", turn, call)
			args := map[string]any{"command": fmt.Sprintf("go test ./parser/... -run TestCase%d -count=1", call), "timeout": 120}
			answer := agent.Message{Role: agent.RoleAssistant, Timestamp: at, StopReason: agent.StopReasonToolUse, Content: []agent.Content{
				{Type: agent.ContentThinking, Thinking: strings.Repeat("thinking about it ", 20), Signature: "sig"},
				agent.Text("Running the test to see what fails."),
				agent.ToolCall(id, "bash", args),
			}}
			size := resultBytes + (turn*7+call*13)%4_000
			if call == 0 && (turn == 3 || turn == 40) {
				size = 80_000
			}
			result := resultFor(id, "bash", boring(size)+"\nFAIL: exit code 1\n")
			result.Timestamp = at
			msgs = append(msgs, answer, result)
		}
		msgs = append(msgs, agent.Message{Role: agent.RoleAssistant, Timestamp: at, StopReason: agent.StopReasonStop,
			Content: []agent.Content{agent.Text(strings.Repeat("The parser now handles that case. ", 10))}})
	}
	return msgs
}

// BenchmarkGuard200k is the guard on every request of a 200k-token session
// against a 200k window: both steps run (two results are cut, the oldest
// are replaced), with the estimates and cuts of earlier requests cached.
func BenchmarkGuard200k(b *testing.B) {
	for _, c := range []struct {
		name        string
		resultBytes int
	}{{"few-large-messages", 1_500}, {"many-small-messages", 0}} {
		b.Run(c.name, func(b *testing.B) {
			msgs := transcript200k(c.resultBytes)
			llm := agent.LLMContext{SystemPrompt: strings.Repeat("You are steer. ", 200), Messages: msgs}
			budget := Budget{Window: 200_000, Reserve: 16_384}
			g := NewGuard(NewEstimator())
			_, rep := g.Apply(llm, budget) // the first request measures every message
			b.ResetTimer()
			for b.Loop() {
				g.Apply(llm, budget)
			}
			b.ReportMetric(float64(len(msgs)), "messages")
			b.ReportMetric(float64(rep.Pressure.Tokens), "tokens")
		})
	}
}
