package runner

import (
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/contextguard"
)

func TestMeterRoute(t *testing.T) {
	for _, c := range []struct {
		route contextguard.Route
		want  MeterRoute
	}{
		{contextguard.RouteFits, MeterFits},
		{contextguard.RouteTruncateToolResultsOnly, MeterTruncate},
		{contextguard.RouteCompactOnly, MeterCompact},
		{contextguard.RouteCompactThenTruncate, MeterCompact},
	} {
		if got := meterRoute(c.route); got != c.want {
			t.Errorf("meterRoute(%s) = %s, want %s", c.route, got, c.want)
		}
	}
}

// TestContextMeter: the meter measures the session against the model's
// window (agenttest.Model: 100k) and says what the guard would do.
func TestContextMeter(t *testing.T) {
	// Text counts about 4 bytes a token and tool output about 2: a 430 KB
	// message is far over the window, a 160 KB tool result a little over,
	// with much to cut.
	big := strings.Repeat("lorem ipsum dolor sit amet ", 16_000)
	output := strings.Repeat("src/main.go:12: ok\n", 8_000)
	toolResult := func(text string) agent.Message {
		return agent.Message{Role: agent.RoleToolResult, ToolCallID: "c1", ToolName: "read",
			Content: []agent.Content{agent.Text(text)}, Timestamp: agenttest.Epoch}
	}
	call := agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{{Type: agent.ContentToolCall, ID: "c1",
		Name: "read", Arguments: map[string]any{}}}, StopReason: agent.StopReasonToolUse, Timestamp: agenttest.Epoch}
	for _, c := range []struct {
		name      string
		msgs      []agent.Message
		want      MeterRoute
		minTokens int
	}{
		{"a short session fits", []agent.Message{agent.UserMessage("hi", agenttest.Epoch)}, MeterFits, 1},
		{"a huge tool result is cut", []agent.Message{agent.UserMessage("read it", agenttest.Epoch), call, toolResult(output)}, MeterTruncate, 90_000},
		{"a huge conversation is compacted", []agent.Message{agent.UserMessage(big, agenttest.Epoch)}, MeterCompact, 90_000},
	} {
		t.Run(c.name, func(t *testing.T) {
			rt := newRuntime(t, nil, agenttest.NewScript(), Options{})
			if err := rt.agent.ReplaceMessages(c.msgs); err != nil {
				t.Fatal(err)
			}
			m := rt.ContextMeter()
			if m.Route != c.want || m.Window != agenttest.Model.ContextWindow || m.Budget <= 0 || m.Budget >= m.Window ||
				m.Tokens < c.minTokens {
				t.Fatalf("meter %+v, want route %s on a %d window with at least %d tokens", m, c.want, agenttest.Model.ContextWindow, c.minTokens)
			}
		})
	}
}
