package tui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/term"
)

func TestNotification(t *testing.T) {
	answer := agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonStop}
	failed := agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonError, ErrorMessage: "rate limited"}
	aborted := agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonAborted}
	approval := agent.Annotation{Kind: runner.AnnotationApprovalRequest, Data: runner.ApprovalRequest{ToolName: "bash"}}
	tests := []struct {
		name   string
		events []agent.Event
		want   string // "" for none
	}{
		{"finished", []agent.Event{agent.AgentEnd{Messages: []agent.Message{answer}}}, "the run finished"},
		{"failed", []agent.Event{agent.AgentEnd{Messages: []agent.Message{failed}}}, "the run failed: rate limited"},
		{"interrupted", []agent.Event{agent.AgentEnd{Messages: []agent.Message{aborted}}}, ""},
		{"approval", []agent.Event{approval}, "approval needed: bash"},
		{"failure before approval", []agent.Event{approval, agent.AgentEnd{Messages: []agent.Message{failed}}}, "the run failed: rate limited"},
		{"nothing to tell", []agent.Event{agent.TurnStart{}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := notification(tt.events)
			if ok != (tt.want != "") || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, ok, tt.want)
			}
		})
	}
}

// TestNotifyOnlyWhileUnfocused: nothing before the terminal reports a blur
// (a terminal that never reports focus gets nothing), the notification
// after a blur, nothing again once focused, and nothing when off.
func TestNotifyOnlyWhileUnfocused(t *testing.T) {
	end := []agent.Event{agent.AgentEnd{Messages: []agent.Message{{Role: agent.RoleAssistant, StopReason: agent.StopReasonStop}}}}
	bell := term.DetectNotifier(term.NotifyBell, func(string) string { return "" })
	steps := []struct {
		name     string
		notifier term.Notifier
		report   tea.Msg // nil: none yet
		want     string
	}{
		{"no report yet", bell, nil, ""},
		{"blurred", bell, tea.BlurMsg{}, "\a"},
		{"focused again", bell, tea.FocusMsg{}, ""},
		{"off", term.Notifier{}, tea.BlurMsg{}, ""},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			m := New(newRuntime(t, nil), Options{Terminal: TerminalFeatures{Notifier: st.notifier}})
			report := func(msg tea.Msg) { // as Bubble Tea delivers it
				next, _ := m.Update(msg)
				m = next.(Model)
			}
			if st.name == "focused again" {
				report(tea.BlurMsg{})
			}
			if st.report != nil {
				report(st.report)
			}
			cmd := m.notifyFor(end)
			if (cmd != nil) != (st.want != "") {
				t.Fatalf("notify: %v, want %q", cmd != nil, st.want)
			}
			if cmd != nil {
				if got := cmd().(msgs.EmitSequenceMsg).Seq; got != st.want {
					t.Fatalf("wrote %q, want %q", got, st.want)
				}
			}
		})
	}
}
