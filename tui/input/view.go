package input

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// sync recomputes the completion list, the key states and the view after
// any change; View only returns the result.
func (m *Model) sync() {
	m.updateMatches()
	open := m.PopupOpen()
	k := &m.keys
	k.Complete.SetEnabled(open)
	k.CompletePrev.SetEnabled(open)
	k.CompleteNext.SetEnabled(open)
	k.Dismiss.SetEnabled(open)
	m.editKeys.Up.SetEnabled(!open)
	m.editKeys.Down.SetEnabled(!open)
	if m.running {
		k.Send.SetHelp("enter", "steer")
	} else {
		k.Send.SetHelp("enter", "send")
	}
	m.view = m.render()
}

func (m *Model) updateMatches() {
	text := m.ed.value()
	m.matches = nil
	if m.dismissed || !m.focused || !strings.HasPrefix(text, "/") || strings.ContainsAny(text, " \n\t") {
		m.sel = 0
		return
	}
	for _, s := range m.d.Commands {
		if strings.HasPrefix(s.Name, text[1:]) {
			m.matches = append(m.matches, s)
		}
	}
	if m.sel >= len(m.matches) {
		m.sel = 0
	}
}

// Height is the number of lines View takes.
func (m Model) Height() int { return strings.Count(m.view, "\n") + 1 }

// View returns the completion list (if open), a rule and the text.
func (m Model) View() string { return m.view }

func (m *Model) render() string {
	st := m.d.Styles
	var out []string
	out = append(out, m.renderMatches()...)
	rule := st.Rule
	if m.focused {
		rule = st.RuleFocused
	}
	out = append(out, rule.Render(strings.Repeat("─", m.width)))

	prompt := st.PromptBlurred.Render("›") + " "
	if m.focused {
		prompt = st.Prompt.Render("›") + " "
	}
	textWidth := m.width - 2
	if m.ed.empty() {
		cur := ""
		if m.focused {
			cur = st.Cursor.Render(" ")
		}
		ph := ansi.Truncate(m.d.Placeholder, max(textWidth-1, 0), "…")
		return strings.Join(append(out, prompt+cur+st.Placeholder.Render(ph)), "\n")
	}
	lines, cursor := m.ed.layout(textWidth)
	m.scroll = clampScroll(m.scroll, cursor, len(lines), m.maxLines)
	end := min(m.scroll+m.maxLines, len(lines))
	for i := m.scroll; i < end; i++ {
		v := lines[i]
		runes := m.ed.lines[v.row][v.start:v.end]
		var text string
		if i == cursor && m.focused {
			col := m.ed.col - v.start
			under := " "
			if col < len(runes) {
				under = string(runes[col])
			}
			after := ""
			if col+1 <= len(runes) {
				after = string(runes[min(col+1, len(runes)):])
			}
			text = st.Text.Render(string(runes[:col])) + st.Cursor.Render(under) + st.Text.Render(after)
		} else {
			text = st.Text.Render(string(runes))
		}
		p := "  "
		if i == 0 {
			p = prompt
		}
		out = append(out, p+text)
	}
	return strings.Join(out, "\n")
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
	if len(m.matches) == 0 {
		return nil
	}
	st := m.d.Styles
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
