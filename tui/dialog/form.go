package dialog

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/tui/form"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/sanitize"
)

// formDialog is a dialog's form (NewForm) and the requests its answers
// send; a dialog without one has a form of no fields.
type formDialog struct {
	form    form.Model
	submit  func(content map[string]any) tea.Msg
	decline tea.Msg
	cancel  tea.Msg
}

// NewForm returns a dialog that shows text above form f. Enter or Ctrl+S
// submits it from any field: once every field is accepted the dialog closes
// and sends submit(content), else the form says why under each field
// refused. Ctrl+D declines (decline), Esc cancels (cancel). A form is no
// question that one key answers: it is not guarded against keys typed
// ahead.
func NewForm(d Deps, title, text string, f form.Model, submit func(content map[string]any) tea.Msg, decline, cancel tea.Msg) Model {
	m := Model{d: &d, keys: d.Keys, title: title, fm: formDialog{form: f, submit: submit, decline: decline, cancel: cancel}}
	if text != "" {
		m.lines = strings.Split(text, "\n")
	}
	return m
}

// FormCancel is the request a form sends when it is cancelled (its owner
// closing it otherwise, Ctrl+C, must answer it too); nil for a dialog that
// is no form.
func (m Model) FormCancel() tea.Msg {
	if !m.isForm() {
		return nil
	}
	return m.fm.cancel
}

// isForm reports whether the dialog is a form.
func (m Model) isForm() bool { return m.fm.form.Len() > 0 || m.fm.submit != nil }

// TakesText reports whether text typed fast (a paste, a burst) is the
// dialog's: a picker's query, a form's field.
func (m Model) TakesText() bool { return m.Searches() || m.isForm() }

// ShortHelp returns the bindings the help line shows for the dialog.
func (m Model) ShortHelp() []key.Binding {
	if m.isForm() {
		return m.fm.form.Keys().ShortHelp()
	}
	return m.keys.ShortHelp()
}

// updateForm gives a key to the form, or answers it.
func (m Model) updateForm(msg tea.Msg) (Model, tea.Cmd) {
	k := m.fm.form.Keys()
	if km, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(km, k.Submit):
			content, f, ok := m.fm.form.Submit()
			m.fm.form = f
			if !ok {
				m.render()
				return m, nil
			}
			return m, closeWith(m.fm.submit(content))
		case key.Matches(km, k.Decline):
			return m, closeWith(m.fm.decline)
		case key.Matches(km, k.Cancel):
			return m, closeWith(m.fm.cancel)
		}
	}
	var cmd tea.Cmd
	m.fm.form, cmd = m.fm.form.Update(msg)
	m.render()
	return m, cmd
}

// closeWith closes the dialog and sends answer, in that order.
func closeWith(answer tea.Msg) tea.Cmd {
	return tea.Sequence(func() tea.Msg { return msgs.CloseDialogMsg{} }, func() tea.Msg { return answer })
}

// renderForm draws the text, then as much of the form as fits.
func (m *Model) renderForm() {
	st := m.d.Styles
	inner := max(m.width-4, 10)
	var body []string
	for _, l := range m.lines {
		body = append(body, ansi.Truncate(sanitize.String(l, sanitize.Options{}), inner, "…"))
	}
	if len(body) > 0 {
		body = append(body, "")
	}
	m.fm.form.SetWidth(inner)
	body = append(body, m.fm.form.Lines(max(m.rows()-len(body), 3))...)
	box := st.Box.Width(inner + 2).Render(st.Title.Render(m.title) + "\n" + strings.Join(body, "\n"))
	lines := strings.Split(box, "\n")
	for len(lines) < m.height {
		lines = append(lines, "")
	}
	m.view = strings.Join(lines, "\n")
}
