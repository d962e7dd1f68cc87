package input

import (
	"slices"
	"strings"

	"github.com/steer-tui/steer/tui/filter"
)

// The completion list narrows as a command is typed, by the rule every
// picker follows (filter.Rank): "/mo" offers /model first, "/thk"
// /thinking. A name the text starts comes first, so Tab on a prefix
// completes what it did before fuzzy matching came.

// typingCommand reports whether the text is a command being typed: a
// slash, then no space yet, and the list not closed for it.
func (m *Model) typingCommand() bool {
	text := m.ta.Value()
	return !m.dismissed && m.ta.Focused() && strings.HasPrefix(text, "/") && !strings.ContainsAny(text, " \n\t")
}

// updateMatches ranks the commands against what is typed after the slash.
// The selection goes back to the best match whenever the matches change
// (the user typed), and stays while they are the same (↑/↓ moved it).
func (m *Model) updateMatches() {
	before := m.matches
	m.matches = nil
	if !m.typingCommand() {
		m.sel = 0
		return
	}
	all := append(slices.Clip(m.d.Commands), m.dynamic...)
	names := make([]string, len(all))
	for i, s := range all {
		names[i] = s.Name
	}
	for _, i := range filter.Rank(m.ta.Value()[1:], names) {
		m.matches = append(m.matches, all[i])
	}
	if !slices.Equal(before, m.matches) || m.sel >= len(m.matches) {
		m.sel = 0
	}
}

// SetDynamicCommands replaces the commands offered after the fixed ones:
// the user's skills and templates and the MCP servers' prompts, which come
// and go with the files and the servers.
func (m *Model) SetDynamicCommands(s []Suggestion) {
	m.dynamic = s
	m.sync() // a list already open shows them, with its keys
}
