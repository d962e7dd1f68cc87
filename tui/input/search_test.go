package input

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
)

func TestSearch(t *testing.T) {
	h := prompts("third prompt", "Second guess", "steer:second prompt", "first prompt")
	tests := []struct {
		name      string
		keys      []any
		line      string // the search line, "" when closed
		value     string // the editor's text
		searching bool
	}{
		{"ctrl+r opens it", []any{"draft", ctrlR}, "(reverse-i-search)`': ", "draft", true},
		{"typing finds the newest match", []any{ctrlR, "sec"}, "(reverse-i-search)`sec': Second guess", "", true},
		{"ctrl+r again: the next older", []any{ctrlR, "sec", ctrlR}, "(reverse-i-search)`sec': second prompt", "", true},
		{"no older match fails, keeping the last", []any{ctrlR, "sec", ctrlR, ctrlR}, "(failed reverse-i-search)`sec': second prompt", "", true},
		{"typing narrows from the match", []any{ctrlR, "sec", ctrlR, "ond p"}, "(reverse-i-search)`second p': second prompt", "", true},
		{"no match at all", []any{ctrlR, "zzz"}, "(failed reverse-i-search)`zzz': ", "", true},
		{"backspace searches again from the newest", []any{ctrlR, "sec", ctrlR, bs}, "(reverse-i-search)`se': Second guess", "", true},
		{"typed fast", []any{ctrlR, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("first")}}, "(reverse-i-search)`first': first prompt", "", true},
		{"enter takes the match", []any{"draft", ctrlR, "sec", ctrlR, enter}, "", "second prompt", false},
		{"esc leaves the draft", []any{"draft", ctrlR, "sec", esc}, "", "draft", false},
		{"esc after a walk leaves the item", []any{up, ctrlR, "first", esc}, "", "third prompt", false},
		{"enter with no match leaves the draft", []any{"draft", ctrlR, "zzz", enter}, "", "draft", false},
		{"ctrl+r with nothing typed repeats the last search", []any{ctrlR, "first", esc, ctrlR, ctrlR}, "(reverse-i-search)`first': first prompt", "", true},
		{"other keys are dropped", []any{"draft", ctrlR, tea.KeyMsg{Type: tea.KeyLeft}, tea.KeyMsg{Type: tea.KeyCtrlW}}, "(reverse-i-search)`': ", "draft", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := withHistory(h)
			m.SetSize(80, 3)
			m = keys(m, tt.keys...)
			var line string
			if l := m.renderSearch(); len(l) == 1 {
				line = strings.TrimRight(l[0], " ")
			}
			if line != strings.TrimRight(tt.line, " ") {
				t.Errorf("search line = %q, want %q", line, tt.line)
			}
			if m.Value() != tt.value || m.Searching() != tt.searching {
				t.Errorf("value %q, searching %v; want %q, %v", m.Value(), m.Searching(), tt.value, tt.searching)
			}
		})
	}
}

// TestSearchTakesAsAWalk: the match taken keeps its kind, and ↓ walks on
// from it to the draft.
func TestSearchTakesAsAWalk(t *testing.T) {
	m := keys(withHistory(prompts("third prompt", "steer:second prompt", "first prompt")), "draft", ctrlR, "second", enter)
	m.SetRunning(true)
	if m.Value() != "second prompt" || m.Holding() != agent.QueueSteer {
		t.Fatalf("took %q holding %q, want the steering", m.Value(), m.Holding())
	}
	if got := keys(m, down).Value(); got != "third prompt" {
		t.Errorf("down from the match shows %q, want the newer item", got)
	}
	if got := keys(m, down, down).Value(); got != "draft" {
		t.Errorf("down down shows %q, want the draft", got)
	}
	if _, got := press(m, enter); !reflect.DeepEqual(got, msgs.SteerMsg{Text: "second prompt"}) {
		t.Errorf("enter sent %#v, want the steering", got)
	}
}

// TestSearchAsksForOlder: a search that finds nothing more in a full window
// asks for the older history once, and takes the matches it gets.
func TestSearchAsksForOlder(t *testing.T) {
	h := runner.PromptHistory{Workspace: "/ws"}
	for i := range runner.PromptHistoryLimit {
		h.Prompts = append(h.Prompts, runner.Prompt{ID: int64(2000 - i), Kind: runner.PromptNew, Text: fmt.Sprintf("prompt %d", 2000-i)})
	}
	m := keys(withHistory(h), ctrlR)
	m, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("old")})
	if cmd == nil {
		t.Fatal("no match in a full window: the older history was not asked for")
	}
	want := SearchHistoryMsg{Query: "old", Before: 1001}
	if got := cmd(); got != want {
		t.Fatalf("asked %#v, want %#v", got, want)
	}
	if _, again := m.Update(ctrlR); again != nil {
		t.Error("the same page was asked for twice")
	}
	m, _ = m.Update(HistoryFoundMsg{Query: "other", Prompts: []runner.Prompt{{ID: 5, Text: "other"}}})
	if len(m.hist.items) != runner.PromptHistoryLimit {
		t.Fatal("an answer for another query was taken")
	}
	m, _ = m.Update(HistoryFoundMsg{Query: "old", Prompts: []runner.Prompt{{ID: 7, Kind: runner.PromptFollowUp, Text: "an old one"}, {ID: 3, Text: "older"}}})
	if line := m.renderSearch()[0]; !strings.Contains(line, "`old': an old one") {
		t.Fatalf("search line %q, want the older match", line)
	}
	m = keys(m, ctrlR)
	if line := m.renderSearch()[0]; !strings.Contains(line, "`old': older") {
		t.Fatalf("search line %q, want the next older match", line)
	}
	m = keys(m, enter)
	if m.Value() != "older" {
		t.Errorf("took %q", m.Value())
	}
}

// TestGoldenHistory: the editor's view while walking and searching.
func TestGoldenHistory(t *testing.T) {
	lipgloss.SetColorProfile(termenv.Ascii)
	h := prompts("follow:then update the docs", "second prompt", "first prompt")
	tests := []struct {
		name    string
		running bool
		keys    []any
	}{
		{"walk", true, []any{"my draft", up}},
		{"walk_prompt", false, []any{up, up}},
		{"search", false, []any{"my draft", ctrlR, "sec"}},
		{"search_failed", false, []any{ctrlR, "nothing"}},
		{"recalled_then_edited", true, []any{up, " now"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := withHistory(h)
			m.SetSize(60, 3)
			m.SetRunning(tt.running)
			m = keys(m, tt.keys...)
			golden.RequireEqual(t, []byte(m.View()))
		})
	}
}
