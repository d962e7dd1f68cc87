package input

import (
	"strings"

	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent"
)

// sync recomputes the completion list, the key states and the view after
// any change; View only returns the result.
func (m *Model) sync() {
	m.forgetDeleted()
	m.updateMatches()
	m.updateMentions()
	open := m.PopupOpen()
	k := &m.keys
	k.Complete.SetEnabled(open)
	k.CompletePrev.SetEnabled(open)
	k.CompleteNext.SetEnabled(open)
	k.Dismiss.SetEnabled(open)
	k.Detach.SetEnabled(len(m.chips) > 0)
	m.editKeys.Up.SetEnabled(!open)
	m.editKeys.Down.SetEnabled(!open)
	m.syncHistory()
	m.ta.KeyMap = m.editKeys.textarea(k.Newline)
	if m.kind != "" && m.ta.Value() == "" {
		m.kind = "" // the taken-back text was deleted
	}
	switch {
	case m.mentionOpen():
		k.Send.SetHelp(k.Send.Help().Key, "insert")
		k.FollowUp.SetHelp(k.FollowUp.Help().Key, "send")
	case m.kind == agent.QueueFollowUp:
		k.Send.SetHelp(k.Send.Help().Key, "re-queue follow-up")
		k.FollowUp.SetHelp(k.FollowUp.Help().Key, "as steering")
	case m.kind == agent.QueueSteer && m.running:
		k.Send.SetHelp(k.Send.Help().Key, "re-steer")
		k.FollowUp.SetHelp(k.FollowUp.Help().Key, "as follow-up")
	case m.running:
		k.Send.SetHelp(k.Send.Help().Key, "steer")
		k.FollowUp.SetHelp(k.FollowUp.Help().Key, "follow-up")
	default:
		k.Send.SetHelp(k.Send.Help().Key, "send")
		k.FollowUp.SetHelp(k.FollowUp.Help().Key, "follow-up")
	}
	m.view = m.render()
}

// heldLabel names what a taken-back text will be sent as, on the rule.
func (m *Model) heldLabel() string {
	if label := m.historyLabel(); label != "" {
		return label
	}
	switch m.kind {
	case agent.QueueFollowUp:
		return " taken back · enter re-queues it as a follow-up "
	case agent.QueueSteer:
		return " taken back · enter re-sends it as steering "
	}
	return ""
}

// Height is the number of lines View takes.
func (m Model) Height() int { return strings.Count(m.view, "\n") + 1 }

// View returns the completion list (if open), a rule and the text.
func (m Model) View() string { return m.view }

func (m *Model) render() string {
	st := m.d.Styles
	out := append(append(append(m.renderMatches(), m.renderMentions()...), m.renderChips()...), m.renderSearch()...)
	rule := st.Rule
	if m.ta.Focused() {
		rule = st.RuleFocused
	}
	if label := m.heldLabel(); label != "" && m.width >= 12 {
		label = ansi.Truncate(label, m.width-4, "…")
		tail := max(m.width-2-ansi.StringWidth(label), 0)
		out = append(out, rule.Render("──")+st.Held.Render(label)+rule.Render(strings.Repeat("─", tail)))
	} else {
		out = append(out, rule.Render(strings.Repeat("─", m.width)))
	}

	// The text grows to maxLines screen lines, then scrolls with the cursor.
	total, cur := layout(m.ta)
	m.scroll = clampScroll(m.scroll, cur, total, m.maxLines)
	end := min(m.scroll+m.maxLines, total)
	m.ta.SetHeight(end) // the textarea's view starts at the first line (see edit)
	lines := strings.Split(m.ta.View(), "\n")
	return strings.Join(append(out, lines[min(m.scroll, len(lines)):min(end, len(lines))]...), "\n")
}

// layout counts the screen lines the text wraps to and finds the one that
// holds the cursor. The textarea keeps both to itself, so a copy of it walks
// the rows with its exported cursor moves; each row's wrap is memoised.
func layout(ta textarea.Model) (total, cursor int) {
	info, row := ta.LineInfo(), ta.Line()
	total, cursor = info.Height, info.RowOffset
	up := ta
	for r := row; r > 0; r-- {
		up.CursorStart()
		up.CursorUp() // to the end of the row above
		h := up.LineInfo().Height
		total, cursor = total+h, cursor+h
	}
	for r := row + 1; r < ta.LineCount(); r++ {
		ta.CursorEnd()
		ta.CursorDown() // to the start of the row below
		total += ta.LineInfo().Height
	}
	return total, cursor
}

func clampScroll(scroll, cursor, total, window int) int {
	if cursor < scroll {
		scroll = cursor
	}
	if cursor >= scroll+window {
		scroll = cursor - window + 1
	}
	return max(min(scroll, total-window), 0)
}

func (m *Model) renderMatches() []string {
	st := m.d.Styles
	if len(m.matches) == 0 {
		if text := m.ta.Value(); m.typingCommand() && len(text) > 1 && commandLine.Get().MatchString(text) {
			return []string{ansi.Truncate(st.CompletionSummary.Render("  no command matches "+text), m.width, "…")}
		}
		return nil
	}
	rows := min(maxSuggestions, m.maxLines+1)
	first := 0
	if m.sel >= rows {
		first = m.sel - rows + 1
	}
	nameWidth := 0
	for _, s := range m.matches {
		nameWidth = max(nameWidth, len(s.Name)+len(s.Args)+2)
	}
	var out []string
	for i := first; i < len(m.matches) && i < first+rows; i++ {
		s := m.matches[i]
		name := "/" + s.Name
		if s.Args != "" {
			name += " " + s.Args
		}
		name += strings.Repeat(" ", max(nameWidth-len(name), 0))
		line := st.Completion.Render("  "+name) + "  " + st.CompletionSummary.Render(s.Summary)
		if i == m.sel {
			line = st.CompletionSelected.Render("› "+name) + "  " + st.CompletionSummary.Render(s.Summary)
		}
		out = append(out, ansi.Truncate(line, m.width, "…"))
	}
	return out
}
