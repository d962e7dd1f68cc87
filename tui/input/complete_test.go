package input

import (
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/theme"
)

func commandInput() Model {
	var cmds []Suggestion
	for _, n := range []string{"new", "sessions", "tree", "fork", "clone", "name", "model", "thinking", "compact", "help", "quit"} {
		cmds = append(cmds, Suggestion{Name: n, Summary: n + " summary"})
	}
	m := New(Deps{Styles: theme.NewStyles(theme.Plain()).Input, Keys: DefaultKeyMap(), Edit: DefaultEditKeyMap(), Commands: cmds})
	m.SetSize(60, 5)
	return m
}

func matchNames(m Model) []string {
	var out []string
	for _, s := range m.matches {
		out = append(out, s.Name)
	}
	return out
}

// TestCompletionFilters: the list narrows fuzzily as a command is typed,
// names the text starts first, and Enter or Tab take the best match.
func TestCompletionFilters(t *testing.T) {
	backspace := tea.KeyMsg{Type: tea.KeyBackspace}
	cases := []struct {
		name  string
		typed string
		keys  []tea.KeyMsg
		want  []string
		enter string // the command Enter runs
	}{
		{"a slash lists every command", "/", nil, []string{"new", "sessions", "tree", "fork", "clone", "name", "model", "thinking", "compact", "help", "quit"}, "new"},
		{"a prefix comes first", "/n", nil, []string{"new", "name", "sessions", "clone", "thinking"}, "new"},
		{"a prefix narrows", "/mo", nil, []string{"model"}, "model"},
		{"fuzzy when no name holds the text", "/thk", nil, []string{"thinking"}, "thinking"},
		{"fuzzy across the name", "/cmp", nil, []string{"compact"}, "compact"},
		{"backspace widens", "/mod", []tea.KeyMsg{backspace, backspace}, []string{"model", "name", "compact"}, "model"},
		{"backspace to the slash lists all", "/mo", []tea.KeyMsg{backspace, backspace}, nil, "new"},
		{"down selects among the matches", "/n", []tea.KeyMsg{{Type: tea.KeyDown}}, []string{"new", "name", "sessions", "clone", "thinking"}, "name"},
		{"typing after a move selects the best again", "/e", []tea.KeyMsg{{Type: tea.KeyDown}, {Type: tea.KeyRunes, Runes: []rune("s")}}, []string{"sessions"}, "sessions"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := typeText(commandInput(), c.typed)
			for _, k := range c.keys {
				m, _ = m.Update(k)
			}
			if got := matchNames(m); c.want != nil && !slices.Equal(got, c.want) {
				t.Errorf("matches %q, want %q", got, c.want)
			}
			_, req := press(m, tea.KeyMsg{Type: tea.KeyEnter})
			if req != (msgs.RunCommandMsg{Name: c.enter}) {
				t.Errorf("enter sent %#v, want /%s", req, c.enter)
			}
			m, _ = m.Update(tea.KeyMsg{Type: tea.KeyTab})
			if got := m.Value(); got != "/"+c.enter+" " {
				t.Errorf("tab completed to %q, want /%s", got, c.enter)
			}
		})
	}
}

// TestCompletionShowsCommandsThatArriveWhileOpen: the library and the MCP
// prompts are read as the list opens and come after the keys typed; the
// list open shows them at once, and its keys take them.
func TestCompletionShowsCommandsThatArriveWhileOpen(t *testing.T) {
	m := typeText(commandInput(), "/sk")
	if m.PopupOpen() {
		t.Fatalf("a list open before the skills came:\n%s", m.View())
	}
	m.SetDynamicCommands([]Suggestion{{Name: "skill:pdf", Summary: "Extract text from PDF files"}})
	if !m.PopupOpen() || !strings.Contains(m.View(), "/skill:pdf") || !strings.Contains(m.View(), "Extract text from PDF files") {
		t.Fatalf("the skill that came is not listed:\n%s", m.View())
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyTab})
	if got := m.Value(); got != "/skill:pdf " {
		t.Errorf("tab completed to %q, want /skill:pdf", got)
	}
}

// TestCompletionSaysNoMatch: a command that matches nothing says so, and a
// path is not taken for one.
func TestCompletionSaysNoMatch(t *testing.T) {
	m := typeText(commandInput(), "/zzz")
	if m.PopupOpen() || !strings.Contains(m.View(), "no command matches /zzz") {
		t.Fatalf("no match is not said:\n%s", m.View())
	}
	m = typeText(commandInput(), "/usr/bin")
	if strings.Contains(m.View(), "no command") {
		t.Fatalf("a path is taken for a command:\n%s", m.View())
	}
}
