package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/lazyregexp"
)

// colourReply is the body of a terminal's answer to the OSC 10/11 colour
// queries: "11;rgb:1c1c/1c1c/1c1c".
var colourReply = lazyregexp.Regexp{Expr: `^1[01];rgba?:[0-9a-fA-F]{1,4}(/[0-9a-fA-F]{1,4}){2,3}$`}

// lateReply reports whether msg is part of the terminal's answer to the
// background-colour query that came too late: theme.Detect asks before the
// program starts and waits only briefly, so a slow terminal (over ssh, say)
// may answer once Bubble Tea reads the input. Bubble Tea v1 does not parse
// OSC answers: "ESC ] 11;rgb:…/…/… ST" arrives as alt+], the runes
// "11;rgb:…" and alt+\ (ctrl+g when it ends with BEL), and would type the
// colour into the editor. The cursor-position and device-attribute answers
// arrive as unknown CSI sequences, which nothing handles. Alt+] is bound to
// nothing, so dropping it costs nothing.
func (m *Model) lateReply(msg tea.KeyMsg) bool {
	open := m.replyOpen
	m.replyOpen = false
	switch {
	case msg.Type == tea.KeyRunes && msg.Alt && string(msg.Runes) == "]":
		m.replyOpen = true
		return true
	case !open:
		return false
	case msg.Type == tea.KeyRunes && !msg.Alt && colourReply.Get().MatchString(string(msg.Runes)):
		m.replyOpen = true // its terminator follows
		return true
	case msg.Type == tea.KeyRunes && msg.Alt && string(msg.Runes) == `\`, msg.Type == tea.KeyCtrlG:
		return true
	}
	return false
}
