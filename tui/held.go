package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/queue"
)

// A slash command typed while a run is active either runs at once, waits
// for the run's end (held: shown in the queue strip as a command, taken back
// or dropped like a queued item, run in order once the run has ended), or
// is refused with the reason; never lost. Each command's rule is data:
//
//	command                     while a run is active
//	─────────────────────────   ──────────────────────────────────────────
//	/compact                    held: the runtime cannot compact mid-run
//	/clone                      held: the copy holds the run's answer too
//	/model x, /thinking x       held: the run goes on with what it started
//	                            with (the pickers open at once; a choice
//	                            there applies from the next request)
//	/tree, /fork                refused: they move the session under the run
//	/<server>:<prompt>          at once, like a typed message: the MCP
//	                            prompt is sent as steering (mcpprompts.go)
//	/skill:<name>, /<template>  at once, like a typed message: the line is
//	                            sent as steering, the runner expands it
//	                            (skills.go)
//	anything else               at once: it does not touch the run (help,
//	                            inspectors, /skills, /name, /export, /quit; /budget
//	                            applies from the run's next request; /new and
//	                            /sessions leave the run going on in the
//	                            background, the badge says so)
type runRule int

const (
	ruleNow runRule = iota
	ruleHold
	ruleRefuse
)

// whileRunning is the rule of command name with args while a run is active,
// with the refusal's reason.
func whileRunning(name, args string) (runRule, string) {
	switch name {
	case "compact", "clone":
		return ruleHold, ""
	case "model", "thinking":
		if args != "" {
			return ruleHold, ""
		}
	case "copy": // copies what the transcript shows now
		return ruleNow, ""
	case "theme": // restyles the view, not the run
		return ruleNow, ""
	case "rewind", "redo":
		return ruleRefuse, fmt.Sprintf("/%s changes the workspace and the session the run works in: wait for it to end, or Esc to interrupt", name)
	case "context": // measures the next request as the run has it so far
		return ruleNow, ""
	case "tree", "fork":
		return ruleRefuse, fmt.Sprintf("/%s moves the session the run works in: wait for it to end, or Esc to interrupt", name)
	}
	return ruleNow, ""
}

// heldCommand is a slash command waiting for the run's end; item is how
// the queue strip shows it.
type heldCommand struct {
	cmd  msgs.RunCommandMsg
	item agent.QueueItem
}

// typed is the command as the user typed it.
func typed(c msgs.RunCommandMsg) string {
	return strings.TrimSpace("/" + c.Name + " " + c.Args)
}

// holdOrRun applies whileRunning to a known command: it reports handled
// when the command was held or refused, and what to do then.
func (m Model) holdOrRun(msg msgs.RunCommandMsg) (Model, tea.Cmd, bool) {
	if !m.running {
		return m, nil, false
	}
	switch rule, why := whileRunning(msg.Name, msg.Args); rule {
	case ruleRefuse:
		m, cmd := m.hint(why)
		return m, cmd, true
	case ruleHold:
		m.heldSeq++
		it := agent.QueueItem{ID: fmt.Sprintf("held_%d", m.heldSeq), Kind: queue.KindCommand, Text: typed(msg), Created: m.opts.Now()}
		m.held = append(m.held[:len(m.held):len(m.held)], heldCommand{cmd: msg, item: it})
		m.syncHeld()
		m, cmd := m.hint(typed(msg) + " runs when the run ends · alt+↑ takes it back")
		return m, cmd, true
	}
	return m, nil, false
}

// runHeld runs the held commands, in the order typed, once no run is
// active.
func (m Model) runHeld() (Model, tea.Cmd) {
	if m.running || len(m.held) == 0 {
		return m, nil
	}
	held := m.held
	m.held = nil
	m.syncHeld()
	var cmds []tea.Cmd
	for _, h := range held {
		var cmd tea.Cmd
		m, cmd = m.handleCommand(h.cmd)
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

// takeHeld takes held command id out: back into the editor, or dropped.
// ok is false when id is no held command's.
func (m Model) takeHeld(id string, drop bool) (Model, tea.Cmd, bool) {
	for i, h := range m.held {
		if h.item.ID != id {
			continue
		}
		m.held = append(m.held[:i:i], m.held[i+1:]...)
		m.syncHeld()
		if drop {
			m, cmd := m.hint("dropped: " + h.item.Text)
			return m, cmd, true
		}
		m.input.TakeBack(h.item.Text, "")
		return m.setFocus(focusInput), nil, true
	}
	return m, nil, false
}

// syncHeld shows the held commands in the queue strip.
func (m *Model) syncHeld() {
	items := make([]agent.QueueItem, len(m.held))
	for i, h := range m.held {
		items[i] = h.item
	}
	m.queue.SetHeld(items)
}

// heldText is the held commands as typed, for the text printed unsent when
// the program ends.
func (m Model) heldText() []string {
	var out []string
	for _, h := range m.held {
		out = append(out, h.item.Text)
	}
	return out
}
