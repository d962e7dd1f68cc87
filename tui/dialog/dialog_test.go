package dialog

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/theme"
)

func deps() Deps { return Deps{Styles: theme.NewStyles(theme.Plain()).Dialog, Keys: DefaultKeyMap()} }

func TestPickerChoosesAnItem(t *testing.T) {
	items := []Item{{Label: "one", Msg: msgs.SetModelMsg{Ref: "a/1"}}, {Label: "two", Detail: "2 · details", Msg: msgs.SetModelMsg{Ref: "a/2"}}}
	m := NewPicker(deps(), "Model", items, 0)
	m.SetSize(50, 8)
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyDown})
	if !strings.Contains(m.View(), "› two") || !strings.Contains(m.View(), "2 · details") {
		t.Fatalf("view:\n%s", m.View())
	}
	for i, l := range strings.Split(m.View(), "\n") {
		if w := ansi.StringWidth(l); w > 50 {
			t.Errorf("line %d is %d wide", i, w)
		}
	}
	if n := strings.Count(m.View(), "\n") + 1; n != 8 {
		t.Errorf("the dialog is %d lines, want 8", n)
	}
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter chose nothing")
	}
	_, cmd = m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if got := cmd(); got != (msgs.CloseDialogMsg{}) {
		t.Fatalf("esc sent %#v", got)
	}
}

func TestInfoScrolls(t *testing.T) {
	var lines []string
	for i := 0; i < 30; i++ {
		lines = append(lines, "line "+strings.Repeat("x", i%5))
	}
	m := NewInfo(deps(), "Help", strings.Join(lines, "\n"))
	m.SetSize(40, 10)
	if !strings.Contains(m.View(), "lines 1–7 of 30") {
		t.Fatalf("view:\n%s", m.View())
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyPgDown})
	if !strings.Contains(m.View(), "lines 7–13 of 30") {
		t.Fatalf("after pgdown:\n%s", m.View())
	}
	if _, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter}); cmd != nil {
		t.Fatal("enter does something in a text dialog")
	}
}
