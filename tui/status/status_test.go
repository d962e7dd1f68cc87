package status

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/theme"
)

func TestBar(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m := New(Deps{Styles: theme.NewStyles(theme.Plain()).Status, Now: func() time.Time { return now }})
	m.SetSize(100)
	m, _ = m.Update(msgs.SessionLoadedMsg{Model: agent.Model{Provider: "scripted", ID: "echo", ContextWindow: 10000}, Thinking: agent.ThinkingLow})
	if v := m.View(); !strings.Contains(v, "scripted/echo (offline) · thinking low") || !strings.Contains(v, "idle") {
		t.Fatalf("idle bar: %q", v)
	}
	m, cmd := m.Update(msgs.RunEventMsg{Events: []agent.Event{agent.AgentStart{}}})
	if cmd == nil {
		t.Fatal("a run does not start the spinner")
	}
	now = now.Add(75 * time.Second)
	m, _ = m.Update(msgs.RunEventMsg{Events: []agent.Event{agent.MessageEnd{Message: agent.Message{
		Role: agent.RoleAssistant, Usage: agent.Usage{Input: 8000, Output: 1500},
	}}}})
	m.now = now
	m.render()
	v := m.View()
	for _, want := range []string{"working 1m15s", "↑8.0k ↓1.5k", "ctx ▰▰▰▰▰ 95%"} {
		if !strings.Contains(v, want) {
			t.Errorf("bar %q lacks %q", v, want)
		}
	}
	m, _ = m.Update(msgs.ErrorMsg{Action: "switch the model", Err: errString("unknown model")})
	if v := m.View(); !strings.Contains(v, "cannot switch the model: unknown model") {
		t.Fatalf("error: %q", v)
	}
	m.ClearHint()
	for _, w := range []int{60, 30, 10} {
		m.SetSize(w)
		if got := ansi.StringWidth(m.View()); got > w {
			t.Errorf("at width %d the bar is %d wide: %q", w, got, m.View())
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }
