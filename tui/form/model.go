// Package form is the form a dialog shows when a server asks the user for
// input (an MCP elicitation): fields built from the requested JSON Schema
// (schema.go), their defaults filled in, edited with bubbles' textinput,
// checked on submit (required fields, numbers, bounds), and the answer in
// the schema's types: text as strings, numbers as numbers, yes or no as
// booleans, a choice as its value, a multi-select as an array of values.
package form

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/tui/sanitize"
	"github.com/steer-tui/steer/tui/theme"
)

// Model is a form being filled in.
type Model struct {
	st     theme.DialogStyles
	keys   KeyMap
	fields []Field
	inputs []textinput.Model // one per field; a Boolean's and a Choice's are unused
	picks  []int             // a Boolean's or Choice's option (-1: none chosen); a MultiChoice's under the cursor
	checks [][]bool          // a MultiChoice's options checked
	errs   []string          // why each field was refused at the last submit
	focus  int
	width  int
}

// New returns a form of fields, each starting with its default.
func New(st theme.DialogStyles, keys KeyMap, fields []Field) Model {
	m := Model{st: st, keys: keys, fields: fields, inputs: make([]textinput.Model, len(fields)),
		picks: make([]int, len(fields)), checks: make([][]bool, len(fields)), errs: make([]string, len(fields)), width: 60}
	for i, f := range fields {
		ti := textinput.New()
		ti.Prompt = "> "
		ti.Cursor.SetMode(cursor.CursorStatic)
		if f.MaxLength != nil && f.Kind == String {
			ti.CharLimit = *f.MaxLength
		}
		m.picks[i] = -1
		switch f.Kind {
		case MultiChoice:
			m.picks[i] = 0
			m.checks[i] = make([]bool, len(f.Options))
			defaults, _ := f.Default.([]any)
			for j, o := range f.Options {
				for _, d := range defaults {
					if o.Value == d {
						m.checks[i][j] = true
					}
				}
			}
		case Boolean, Choice:
			for j, o := range f.Options {
				if f.Default != nil && o.Value == f.Default {
					m.picks[i] = j
				}
			}
			if f.Kind == Boolean && m.picks[i] < 0 {
				m.picks[i] = 0 // no: a yes-or-no always has an answer
			}
		default:
			if f.Default != nil {
				ti.SetValue(fmt.Sprint(f.Default))
			}
		}
		m.inputs[i] = ti
	}
	m.setFocus(0)
	return m
}

// Len is how many fields the form has.
func (m Model) Len() int { return len(m.fields) }

// Keys returns the bindings that apply on the field with the focus.
func (m Model) Keys() KeyMap { return m.keys }

// SetWidth sets how wide the form is drawn.
func (m *Model) SetWidth(w int) {
	m.width = max(w, 10)
	for i := range m.inputs {
		m.inputs[i].Width = max(m.width-4, 4)
	}
}

// Update moves between fields, changes a choice, or types into a text
// field.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(k, m.keys.Toggle):
			m.toggle()
			return m, nil
		case key.Matches(k, m.keys.Next):
			m.setFocus((m.focus + 1) % max(len(m.fields), 1))
			return m, nil
		case key.Matches(k, m.keys.Prev):
			m.setFocus((m.focus - 1 + len(m.fields)) % max(len(m.fields), 1))
			return m, nil
		case key.Matches(k, m.keys.Left):
			m.pick(-1)
			return m, nil
		case key.Matches(k, m.keys.Right):
			m.pick(1)
			return m, nil
		}
	}
	if m.focus >= len(m.fields) || m.fields[m.focus].Kind != String && m.fields[m.focus].Kind != Number && m.fields[m.focus].Kind != Integer {
		return m, nil
	}
	inputs := append([]textinput.Model(nil), m.inputs...) // copies of the form share no input
	var cmd tea.Cmd
	inputs[m.focus], cmd = inputs[m.focus].Update(msg)
	m.inputs = inputs
	return m, cmd
}

// pick moves the focused choice by d, through "none" when it is optional;
// on a multi-select it moves the cursor.
func (m *Model) pick(d int) {
	f := m.fields[m.focus]
	picks := append([]int(nil), m.picks...)
	if f.Kind == MultiChoice {
		picks[m.focus] = min(max(picks[m.focus]+d, 0), len(f.Options)-1)
		m.picks = picks
		return
	}
	lo := -1
	if f.Required || f.Kind == Boolean {
		lo = 0
	}
	n := len(f.Options) - lo
	picks[m.focus] = (picks[m.focus]-lo+d%n+n)%n + lo
	m.picks = picks
}

// toggle checks or unchecks the value under a multi-select's cursor.
func (m *Model) toggle() {
	i := m.focus
	if i >= len(m.fields) || m.fields[i].Kind != MultiChoice || len(m.checks[i]) == 0 {
		return
	}
	checks := append([][]bool(nil), m.checks...) // copies of the form share no marks
	checks[i] = append([]bool(nil), checks[i]...)
	checks[i][m.picks[i]] = !checks[i][m.picks[i]]
	m.checks = checks
}

// setFocus moves the focus to field i and enables the keys that apply
// there: ← → and space change a choice, and are typing in a text field.
func (m *Model) setFocus(i int) {
	inputs := append([]textinput.Model(nil), m.inputs...)
	for j := range inputs {
		if j == i {
			inputs[j].Focus()
		} else {
			inputs[j].Blur()
		}
	}
	m.inputs, m.focus = inputs, i
	kind := String
	if i < len(m.fields) {
		kind = m.fields[i].Kind
	}
	m.keys.Left.SetEnabled(kind == Boolean || kind == Choice || kind == MultiChoice)
	m.keys.Right.SetEnabled(kind == Boolean || kind == Choice || kind == MultiChoice)
	m.keys.Toggle.SetEnabled(kind == MultiChoice)
	many := len(m.fields) > 1
	m.keys.Next.SetEnabled(many)
	m.keys.Prev.SetEnabled(many)
}

// Submit checks every field and answers the content, in the schema's
// types; a field left empty and not required is left out. When a field
// is refused, the form returned says why under it, the focus on the
// first one refused, and ok is false.
func (m Model) Submit() (content map[string]any, form Model, ok bool) {
	content = map[string]any{}
	errs := make([]string, len(m.fields))
	first := -1
	for i, f := range m.fields {
		v, err := m.value(i)
		if err != "" {
			errs[i] = err
			if first < 0 {
				first = i
			}
			continue
		}
		if v != nil {
			content[f.Name] = v
		}
	}
	m.errs = errs
	if first >= 0 {
		m.setFocus(first)
		return nil, m, false
	}
	return content, m, true
}

// value is field i's answer (nil: left out), or why it is refused.
func (m Model) value(i int) (any, string) {
	f := m.fields[i]
	if f.Kind == MultiChoice {
		return f.Picked(m.checks[i])
	}
	if f.Kind == Boolean || f.Kind == Choice {
		if m.picks[i] < 0 {
			if f.Required {
				return nil, "choose one"
			}
			return nil, ""
		}
		return f.Options[m.picks[i]].Value, ""
	}
	return f.Answer(m.inputs[i].Value())
}

// Lines draws the form, at most height lines, the field with the focus in
// view.
func (m Model) Lines(height int) []string {
	var lines []string
	focusStart, focusEnd := 0, 0
	for i, f := range m.fields {
		if i == m.focus {
			focusStart = len(lines)
		}
		lines = append(lines, m.fieldLines(i, f)...)
		if i == m.focus {
			focusEnd = len(lines)
		}
	}
	if height <= 0 || len(lines) <= height {
		return lines
	}
	start := max(min(focusStart, focusEnd-height), 0)
	return lines[start:min(start+height, len(lines))]
}

// fieldLines draws field i: its label, its value, its description and
// why it was refused.
func (m Model) fieldLines(i int, f Field) []string {
	clean := func(s string) string { return ansi.Truncate(sanitize.String(s, sanitize.Options{}), m.width, "…") }
	label := f.Label
	if f.Required {
		label += " *"
	}
	if hint := kindHint(f); hint != "" {
		label += " (" + hint + ")"
	}
	mark, style := "  ", m.st.Item
	if i == m.focus {
		mark, style = "› ", m.st.Selected
	}
	out := []string{style.Render(clean(mark + label))}
	switch f.Kind {
	case Boolean, Choice:
		var opts []string
		for j, o := range f.Options {
			box := "( ) "
			if m.picks[i] == j {
				box = "(•) "
			}
			opts = append(opts, box+sanitize.String(o.Label, sanitize.Options{}))
		}
		out = append(out, "  "+ansi.Truncate(strings.Join(opts, "  "), m.width-2, "…"))
	case MultiChoice: // a line per value: a list may be long
		for j, o := range f.Options {
			box := "[ ] "
			if m.checks[i][j] {
				box = "[x] "
			}
			line := clean("  " + box + o.Label)
			if i == m.focus && m.picks[i] == j {
				line = m.st.Selected.Render(line)
			}
			out = append(out, line)
		}
	default:
		out = append(out, "  "+m.inputs[i].View())
	}
	if f.Help != "" {
		out = append(out, m.st.Hint.Render(clean("  "+f.Help)))
	}
	if m.errs[i] != "" {
		out = append(out, m.st.Detail.Render(clean("  ✗ "+m.errs[i])))
	}
	return out
}

// kindHint says what a text field takes when that is not just text.
func kindHint(f Field) string {
	switch f.Kind {
	case Number:
		return "a number"
	case Integer:
		return "a whole number"
	case String:
		return f.Format
	}
	return ""
}
