package input

import (
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/theme"
)

func newInput() Model {
	m := New(Deps{
		Styles: theme.NewStyles(theme.Plain()).Input, Keys: DefaultKeyMap(), Edit: DefaultEditKeyMap(),
		Commands: []Suggestion{{Name: "model", Summary: "pick a model"}, {Name: "new", Summary: "new session"}},
	})
	m.SetSize(40, 3)
	return m
}

func typeText(m Model, s string) Model {
	for _, r := range s {
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return m
}

// press hands k to the editor the way the root does: sending keys to
// Submit, others to Update.
func press(m Model, k tea.KeyMsg) (Model, tea.Msg) {
	if req, ok := m.Submit(k); ok {
		return m, req
	}
	m, cmd := m.Update(k)
	if cmd == nil {
		return m, nil
	}
	return m, cmd()
}

func TestEditing(t *testing.T) {
	tests := []struct {
		name string
		keys []tea.KeyMsg
		want string
	}{
		{"newline with ctrl+j", []tea.KeyMsg{{Type: tea.KeyCtrlJ}}, "hello world\n"},
		{"backspace", []tea.KeyMsg{{Type: tea.KeyBackspace}}, "hello worl"},
		{"delete word", []tea.KeyMsg{{Type: tea.KeyCtrlW}}, "hello "},
		{"kill to start", []tea.KeyMsg{{Type: tea.KeyCtrlU}}, ""},
		{"home then insert", []tea.KeyMsg{{Type: tea.KeyHome}, {Type: tea.KeyRunes, Runes: []rune(">")}}, ">hello world"},
		{"word left then kill to end", []tea.KeyMsg{{Type: tea.KeyLeft, Alt: true}, {Type: tea.KeyCtrlK}}, "hello "},
		{"paste keeps newlines", []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("\r\nnext\tline"), Paste: true}}, "hello world\nnext    line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := typeText(newInput(), "hello world")
			for _, k := range tt.keys {
				m, _ = m.Update(k)
			}
			if got := m.Value(); got != tt.want {
				t.Errorf("value = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSubmit(t *testing.T) {
	tests := []struct {
		text     string
		followUp bool
		want     tea.Msg
	}{
		{"fix it", false, msgs.SteerMsg{Text: "fix it"}},
		{"then test", true, msgs.FollowUpMsg{Text: "then test"}},
		{"/model test/x", false, msgs.RunCommandMsg{Name: "model", Args: "test/x"}},
		{"/usr/bin is slow", false, msgs.SteerMsg{Text: "/usr/bin is slow"}},
		{"/nosuch", false, msgs.RunCommandMsg{Name: "nosuch"}},
		{"/everything:complex_prompt temperature=0.7 style=short", false,
			msgs.RunCommandMsg{Name: "everything:complex_prompt", Args: "temperature=0.7 style=short"}},
		{"/My_Server:Get.Thing", false, msgs.RunCommandMsg{Name: "My_Server:Get.Thing"}},
		{"/c:/windows is slow", false, msgs.SteerMsg{Text: "/c:/windows is slow"}},
	}
	for _, tt := range tests {
		m := typeText(newInput(), tt.text)
		m, got := press(m, tea.KeyMsg{Type: tea.KeyEnter, Alt: tt.followUp})
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: sent %#v, want %#v", tt.text, got, tt.want)
		}
		if m.Value() != "" {
			t.Errorf("%q: the editor kept %q", tt.text, m.Value())
		}
	}
	if _, got := press(newInput(), tea.KeyMsg{Type: tea.KeyEnter}); got != nil {
		t.Errorf("an empty editor sent %#v", got)
	}
}

func TestCompletion(t *testing.T) {
	m := typeText(newInput(), "/")
	if !m.PopupOpen() || !strings.Contains(m.View(), "/model") || !strings.Contains(m.View(), "/new") {
		t.Fatalf("typing / does not list the commands:\n%s", m.View())
	}
	m = typeText(m, "n")
	if strings.Contains(m.View(), "/model") {
		t.Fatalf("the list is not filtered:\n%s", m.View())
	}
	m, got := press(m, tea.KeyMsg{Type: tea.KeyEnter})
	if got != (msgs.RunCommandMsg{Name: "new"}) {
		t.Fatalf("enter on a partial command sent %#v", got)
	}
	m = typeText(m, "/")
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyTab})
	if m.Value() != "/model " || m.PopupOpen() {
		t.Fatalf("tab completed to %q (list open: %v)", m.Value(), m.PopupOpen())
	}
	m.Reset()
	m = typeText(m, "/")
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if m.PopupOpen() {
		t.Fatal("esc did not close the list")
	}
}

func TestGrowsToMaxLines(t *testing.T) {
	m := newInput()
	if h := m.Height(); h != 2 {
		t.Fatalf("empty editor is %d lines, want rule + 1", h)
	}
	m = typeText(m, "a")
	for i := 0; i < 5; i++ {
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeyCtrlJ})
		m = typeText(m, "line")
	}
	if h := m.Height(); h != 4 {
		t.Fatalf("six lines show as %d, want rule + 3", h)
	}
	if !strings.Contains(m.View(), "line") {
		t.Fatal("the cursor line is not visible")
	}
	for i := 0; i < 5*len("line"); i++ {
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	if h, v := m.Height(), m.View(); h != 3 || !strings.Contains(v, "› a") {
		t.Fatalf("back to two lines the editor shows %d lines, want rule + 2 from the first:\n%s", h, v)
	}
	m.SetValue(strings.Repeat("wrap ", 20))
	if h := m.Height(); h != 4 {
		t.Fatalf("a wrapped line shows as %d lines, want 4", h)
	}
	m.Reset()
	if h := m.Height(); h != 2 {
		t.Fatalf("cleared, the editor is %d lines, want rule + 1", h)
	}
}

func TestWants(t *testing.T) {
	m := newInput()
	for _, k := range []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("q")}, {Type: tea.KeyEnter}, {Type: tea.KeyLeft}, {Type: tea.KeyCtrlW}} {
		if !m.Wants(k) {
			t.Errorf("the editor does not want %s", k)
		}
	}
	for _, k := range []tea.KeyMsg{{Type: tea.KeyEsc}, {Type: tea.KeyCtrlC}, {Type: tea.KeyUp, Alt: true}, {Type: tea.KeyPgUp}, {Type: tea.KeyRunes, Runes: []rune("m"), Alt: true}} {
		if m.Wants(k) {
			t.Errorf("the editor takes %s, a global key", k)
		}
	}
}

// TestBurstIsText feeds words that are key names as the multi-rune KeyRunes
// messages Bubble Tea v1 makes of fast typing: each is inserted as text.
func TestBurstIsText(t *testing.T) {
	m := newInput()
	for _, w := range []string{"up", "enter", "ctrl+j", "home", "ctrl+w", "alt+b"} {
		k := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(w)}
		if !m.Wants(k) {
			t.Errorf("the editor does not take the burst %q", w)
		}
		if _, ok := m.Submit(k); ok {
			t.Errorf("the burst %q sent the text", w)
		}
		m, _ = m.Update(k)
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
	}
	if got, want := m.Value(), "up enter ctrl+j home ctrl+w alt+b "; got != want {
		t.Fatalf("value = %q, want %q", got, want)
	}
}
