package dialog

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/msgs"
)

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// typeEach types s one key at a time.
func typeEach(s string) []tea.KeyMsg {
	var out []tea.KeyMsg
	for _, r := range s {
		out = append(out, runes(string(r)))
	}
	return out
}

func models() []Item {
	var items []Item
	for i, ref := range []string{"scripted/echo", "scripted/tiny", "anthropic/claude-opus-4-8", "anthropic/claude-sonnet-4-6", "openai/gpt-5", "openai/gpt-5-mini", "openai/o3"} {
		items = append(items, Item{Label: ref, Msg: msgs.SetModelMsg{Ref: ref}, Current: i == 3})
	}
	return items
}

// TestPickerFilters: typing narrows the picker's list, Backspace widens it,
// ↑/↓ move among the matches and Enter takes the selected one.
func TestPickerFilters(t *testing.T) {
	backspace := tea.KeyMsg{Type: tea.KeyBackspace}
	all := []string{"scripted/echo", "scripted/tiny", "anthropic/claude-opus-4-8", "anthropic/claude-sonnet-4-6", "openai/gpt-5", "openai/gpt-5-mini", "openai/o3"}
	cases := []struct {
		name   string
		keys   []tea.KeyMsg
		want   []string
		chosen string // what Enter takes; "" nothing
		view   []string
	}{
		{"nothing typed shows all, the current selected", nil, all, "anthropic/claude-sonnet-4-6", []string{"› ● anthropic/claude-sonnet-4-6", "type to filter"}},
		{"part of an id narrows to it", typeEach("opus"), []string{"anthropic/claude-opus-4-8"}, "anthropic/claude-opus-4-8", []string{"/ opus▏", "1 of 7"}},
		{"a burst is typed too", []tea.KeyMsg{runes("tiny")}, []string{"scripted/tiny"}, "scripted/tiny", nil},
		{"q is text, not close", typeEach("q"), nil, "", []string{"no matches for “q”"}},
		{"fuzzy", typeEach("gpt5m"), []string{"openai/gpt-5-mini"}, "openai/gpt-5-mini", nil},
		{"down moves among the matches", append(typeEach("gpt"), tea.KeyMsg{Type: tea.KeyDown}), []string{"openai/gpt-5", "openai/gpt-5-mini"}, "openai/gpt-5-mini", []string{"› openai/gpt-5-mini"}},
		{"backspace widens", append(typeEach("gpt-5-"), backspace, backspace), []string{"openai/gpt-5", "openai/gpt-5-mini"}, "openai/gpt-5", nil},
		{"an empty query selects the current again", append(typeEach("o3"), backspace, backspace), all, "anthropic/claude-sonnet-4-6", nil},
		{"ctrl+u clears", append(typeEach("zz"), tea.KeyMsg{Type: tea.KeyCtrlU}), all, "anthropic/claude-sonnet-4-6", nil},
		{"no matches says so", typeEach("zzz"), nil, "", []string{"no matches for “zzz”"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := NewPicker(deps(), "Model", models(), 3)
			m.SetSize(60, 14)
			for _, k := range c.keys {
				var cmd tea.Cmd
				if m, cmd = m.Update(k); cmd != nil {
					t.Fatalf("%s sent %#v", k, cmd())
				}
			}
			if got := m.Matches(); !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
				t.Errorf("matches %q, want %q", got, c.want)
			}
			for _, s := range c.view {
				if !strings.Contains(m.View(), s) {
					t.Errorf("the view lacks %q:\n%s", s, m.View())
				}
			}
			_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
			switch {
			case c.chosen == "" && cmd != nil:
				t.Fatalf("enter chose something with no match")
			case c.chosen == "":
			case cmd == nil:
				t.Fatalf("enter chose nothing")
			default:
				if got := chosen(t, cmd); got != (msgs.SetModelMsg{Ref: c.chosen}) {
					t.Errorf("enter sent %#v, want %s", got, c.chosen)
				}
			}
		})
	}
}

// chosen runs a choice's Cmd (a sequence: close, then the request) and
// returns the request. Bubble Tea's sequence message is unexported: a
// slice of Cmds.
func chosen(t *testing.T, cmd tea.Cmd) tea.Msg {
	t.Helper()
	seq := reflect.ValueOf(cmd())
	if seq.Kind() != reflect.Slice {
		t.Fatalf("a choice sent %#v, not a sequence", seq.Interface())
	}
	var out []tea.Msg
	for i := range seq.Len() {
		out = append(out, seq.Index(i).Interface().(tea.Cmd)())
	}
	if len(out) != 2 || out[0] != (msgs.CloseDialogMsg{}) {
		t.Fatalf("a choice sent %#v, want a close and the request", out)
	}
	return out[1]
}

// TestQuestionDoesNotFilter: a question's keys answer it, they are no query.
func TestQuestionDoesNotFilter(t *testing.T) {
	m := NewQuestion(deps(), "Allow?", "run ls", []Item{{Label: "Allow", Shortcut: "y", Msg: msgs.SetModelMsg{Ref: "y"}}, {Label: "Deny", Shortcut: "n"}}, nil)
	m.SetSize(60, 12)
	if m.Searches() || strings.Contains(m.View(), "type to filter") {
		t.Fatalf("a question has a query line:\n%s", m.View())
	}
	_, cmd := m.Update(runes("y"))
	if cmd == nil || chosen(t, cmd) != (msgs.SetModelMsg{Ref: "y"}) {
		t.Fatal("y did not answer")
	}
}

// TestSearchPickerAsksItsOwner: a search picker sends the query to its
// owner instead of filtering, and shows the answer.
func TestSearchPickerAsksItsOwner(t *testing.T) {
	type query struct{ q string }
	m := NewSearchPicker(deps(), "Resume", models(), 0, Search{OnQuery: func(q string) tea.Msg { return query{q} }})
	m.SetSize(60, 12)
	m, cmd := m.Update(runes("x"))
	if cmd == nil || cmd() != (query{"x"}) {
		t.Fatal("the query did not go to the owner")
	}
	if got := m.Matches(); len(got) != 7 {
		t.Fatalf("a search picker filtered by itself: %q", got)
	}
	m.SetItems(nil, "")
	if !strings.Contains(m.View(), "no matches for “x”") {
		t.Fatalf("an empty answer does not say so:\n%s", m.View())
	}
	m.SetItems(models(), "")
	if !strings.Contains(m.View(), "› ● anthropic/claude-sonnet-4-6") {
		t.Fatalf("an answer does not select the current item:\n%s", m.View())
	}
}
