package agenttest

import (
	"fmt"
	"strings"
	"sync"

	"github.com/steer-tui/steer/agent"
)

// Trace renders an event as one short line: its type and what identifies it.
// Message updates show the provider event type; queue updates the item texts.
func Trace(ev agent.Event) string {
	switch e := ev.(type) {
	case agent.MessageStart:
		return "message_start " + describe(e.Message)
	case agent.MessageEnd:
		return "message_end " + describe(e.Message)
	case agent.MessageUpdate:
		return "message_update " + string(e.Event.Type)
	case agent.TurnEnd:
		return fmt.Sprintf("turn_end %s results=%d", e.Message.StopReason, len(e.ToolResults))
	case agent.ToolExecutionStart:
		return "tool_execution_start " + e.ToolName
	case agent.ToolExecutionUpdate:
		return "tool_execution_update " + e.ToolName
	case agent.ToolExecutionEnd:
		return fmt.Sprintf("tool_execution_end %s error=%t", e.ToolName, e.IsError)
	case agent.QueueUpdate:
		texts := make([]string, len(e.Items))
		for i, it := range e.Items {
			texts[i] = string(it.Kind) + ":" + it.Text
		}
		return "queue_update [" + strings.Join(texts, ",") + "]"
	case agent.AgentEnd:
		return fmt.Sprintf("agent_end messages=%d", len(e.Messages))
	default:
		return ev.Type()
	}
}

func describe(m agent.Message) string {
	switch m.Role {
	case agent.RoleUser:
		return "user " + m.TextContent()
	case agent.RoleToolResult:
		return fmt.Sprintf("toolResult %s error=%t", m.ToolName, m.IsError)
	default:
		return "assistant " + string(m.StopReason)
	}
}

// Recorder collects events from an agent subscription.
type Recorder struct {
	mu     sync.Mutex
	events []agent.Event
}

// Record is the agent.Subscriber that collects.
func (r *Recorder) Record(ev agent.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
}

// Events returns what was recorded so far.
func (r *Recorder) Events() []agent.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]agent.Event(nil), r.events...)
}

// Traces returns the recorded events as traces, leaving out message updates
// when withUpdates is false.
func (r *Recorder) Traces(withUpdates bool) []string {
	var out []string
	for _, ev := range r.Events() {
		if _, ok := ev.(agent.MessageUpdate); ok && !withUpdates {
			continue
		}
		out = append(out, Trace(ev))
	}
	return out
}
