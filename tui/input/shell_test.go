package input

import (
	"reflect"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/msgs"
)

// TestShellLines: what Enter sends for a line starting with "!".
func TestShellLines(t *testing.T) {
	for _, c := range []struct {
		text string
		want tea.Msg
	}{
		{"!ls -la", msgs.ShellMsg{Command: "ls -la"}},
		{"! git status ", msgs.ShellMsg{Command: "git status"}},
		{"!!make test", msgs.ShellMsg{Command: "make test", Private: true}},
		{"!! make", msgs.ShellMsg{Command: "make", Private: true}},
		{"!", msgs.SteerMsg{Text: "!"}},
		{"!!", msgs.SteerMsg{Text: "!!"}},
		{"wow!", msgs.SteerMsg{Text: "wow!"}},
	} {
		m := typeText(newInput(), c.text)
		got, ok := m.Submit(tea.KeyMsg{Type: tea.KeyEnter})
		if !ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q sends %#v, want %#v", c.text, got, c.want)
		}
	}
}
