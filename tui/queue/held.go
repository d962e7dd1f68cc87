package queue

import "github.com/steer-tui/steer/agent"

// KindCommand marks a slash command the TUI holds until the run ends
// (typed while it is active): no runtime input, the TUI runs it itself.
// Held items follow the runtime's, whose delivery comes first.
const KindCommand agent.QueueKind = "command"

// SetHeld sets the slash commands held for the run's end.
func (m *Model) SetHeld(items []agent.QueueItem) {
	m.held = items
	m.join()
	m.sel = min(m.sel, max(len(m.items)-1, 0))
	m.render()
}

// join makes the strip's items: the runtime's, then the held ones.
func (m *Model) join() {
	m.items = append(append(m.items[:0:0], m.inputs...), m.held...)
}
