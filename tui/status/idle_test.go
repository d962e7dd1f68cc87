package status

import (
	"testing"

	"github.com/charmbracelet/bubbles/spinner"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/tui/msgs"
)

// TestSpinnerTicksOnlyWhileRunning: the idle bar lets the spinner's tick
// chain end, so an idle TUI is not woken ten times a second.
func TestSpinnerTicksOnlyWhileRunning(t *testing.T) {
	tests := []struct {
		name     string
		events   [][]agent.Event
		wantTick bool
	}{
		{name: "idle from the start"},
		{name: "running", events: [][]agent.Event{{agent.AgentStart{}}}, wantTick: true},
		{name: "the run ended", events: [][]agent.Event{{agent.AgentStart{}}, {agent.AgentEnd{}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newBar()
			for _, evs := range tt.events {
				m, _ = m.Update(msgs.RunEventMsg{Events: evs})
			}
			_, cmd := m.Update(spinner.TickMsg{})
			if got := cmd != nil; got != tt.wantTick {
				t.Fatalf("a spinner tick scheduled another: %v, want %v", got, tt.wantTick)
			}
		})
	}
}
