package input

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
)

var (
	up       = tea.KeyMsg{Type: tea.KeyUp}
	down     = tea.KeyMsg{Type: tea.KeyDown}
	altEnter = tea.KeyMsg{Type: tea.KeyEnter, Alt: true}
	ctrlR    = tea.KeyMsg{Type: tea.KeyCtrlR}
	esc      = tea.KeyMsg{Type: tea.KeyEsc}
	bs       = tea.KeyMsg{Type: tea.KeyBackspace}
	newline  = tea.KeyMsg{Type: tea.KeyCtrlJ}
)

// prompts is a history of the given texts, newest first, with ids counting
// down to 1; a text "steer:x" or "follow:x" is x of that kind.
func prompts(texts ...string) runner.PromptHistory {
	h := runner.PromptHistory{Workspace: "/ws"}
	for i, text := range texts {
		p := runner.Prompt{ID: int64(len(texts) - i), Kind: runner.PromptNew, Text: text}
		if rest, ok := strings.CutPrefix(text, "steer:"); ok {
			p.Kind, p.Text = runner.PromptSteer, rest
		}
		if rest, ok := strings.CutPrefix(text, "follow:"); ok {
			p.Kind, p.Text = runner.PromptFollowUp, rest
		}
		h.Prompts = append(h.Prompts, p)
	}
	return h
}

// withHistory is an editor that has read h.
func withHistory(h runner.PromptHistory) Model {
	m, _ := newInput().Update(HistoryLoadedMsg{History: h})
	return m
}

// keys hands each key to the editor as the root does; a text key types it.
func keys(m Model, ks ...any) Model {
	for _, k := range ks {
		switch k := k.(type) {
		case string:
			m = typeText(m, k)
		case tea.KeyMsg:
			m, _ = press(m, k)
		}
	}
	return m
}

func TestHistoryWalk(t *testing.T) {
	three := prompts("third prompt", "second prompt", "first prompt")
	tests := []struct {
		name    string
		history runner.PromptHistory
		keys    []any
		want    string
		walking bool
	}{
		{"up recalls the newest", three, []any{up}, "third prompt", true},
		{"up up recalls the second", three, []any{up, up}, "second prompt", true},
		{"up stops at the oldest", three, []any{up, up, up, up, up}, "first prompt", true},
		{"down walks forward", three, []any{up, up, up, down}, "second prompt", true},
		{"down past the newest restores the draft", three, []any{"my draft", up, up, down, down}, "my draft", false},
		{"down without a walk does nothing", three, []any{"my draft", down}, "my draft", false},
		{"up off the first line moves the cursor", three, []any{"one", newline, "two", up}, "one\ntwo", false},
		{"up from the first line of a draft walks", three, []any{"one", newline, "two", up, up}, "third prompt", true},
		{"a multi-line item: down goes through its lines first", prompts("a\nb", "older"),
			[]any{"draft", up, down}, "a\nb", true},
		{"a multi-line item: then back to the draft", prompts("a\nb", "older"),
			[]any{"draft", up, down, down}, "draft", false},
		{"a multi-line item: up goes on at once", prompts("a\nb", "older"), []any{up, up}, "older", true},
		{"the popup keeps up", three, []any{"/", up}, "/", false},
		{"a recalled command does not open the popup", prompts("/model", "first prompt"), []any{up, up}, "first prompt", true},
		{"an edit ends the walk", three, []any{up, "!", up}, "third prompt", true},
		{"the edited item is the new draft", three, []any{up, "!", up, down}, "third prompt!", false},
		{"no history: up leaves the draft", runner.PromptHistory{}, []any{"draft", up}, "draft", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := keys(withHistory(tt.history), tt.keys...)
			if got := m.Value(); got != tt.want {
				t.Errorf("value = %q, want %q", got, tt.want)
			}
			if m.hist.walking != tt.walking {
				t.Errorf("walking = %v, want %v", m.hist.walking, tt.walking)
			}
		})
	}
}

func TestHistoryKeysFollowTheCursor(t *testing.T) {
	m := withHistory(prompts("third prompt", "second prompt"))
	enabled := func(m Model) string {
		k := m.Keys().History
		var on []string
		for name, b := range map[string]bool{"prev": k.Prev.Enabled(), "next": k.Next.Enabled(), "search": k.Search.Enabled(),
			"older": k.Older.Enabled(), "take": k.Take.Enabled(), "cancel": k.Cancel.Enabled(),
			"send": m.Keys().Send.Enabled(), "line-up": m.EditKeys().Up.Enabled()} {
			if b {
				on = append(on, name)
			}
		}
		return strings.Join(sorted(on), " ")
	}
	steps := []struct {
		keys []any
		want string
	}{
		{nil, "prev search send"},
		{[]any{"one", newline, "two"}, "line-up search send"},
		{[]any{up}, "prev search send"},             // the cursor on the first line
		{[]any{up}, "next prev search send"},        // walking, on the newest (one line)
		{[]any{up}, "line-up next search send"},     // the oldest: nothing before it
		{[]any{ctrlR}, "cancel line-up older take"}, // searching: Enter takes, Esc cancels
		{[]any{esc}, "line-up next search send"},    // back as it was
		{[]any{down, down}, "line-up search send"},  // the draft, the cursor at its end
	}
	for i, st := range steps {
		m = keys(m, st.keys...)
		if got := enabled(m); got != st.want {
			t.Errorf("step %d (%v): enabled %q, want %q", i, st.keys, got, st.want)
		}
	}
}

func sorted(s []string) []string {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

// TestRecalledKind: a recalled item is sent again as the kind it was sent
// as, through the taken-back item's mechanism.
func TestRecalledKind(t *testing.T) {
	h := prompts("follow:then the docs", "steer:focus on tests", "a prompt")
	tests := []struct {
		name    string
		ups     int
		running bool
		key     tea.KeyMsg
		want    tea.Msg
		holding agent.QueueKind
		kind    runner.PromptKind
	}{
		{"a follow-up as a follow-up", 1, true, enter, msgs.FollowUpMsg{Text: "then the docs"}, agent.QueueFollowUp, runner.PromptFollowUp},
		{"a follow-up, alt+enter: as steering", 1, true, altEnter, msgs.SteerMsg{Text: "then the docs"}, agent.QueueFollowUp, runner.PromptSteer},
		{"steering as steering while running", 2, true, enter, msgs.SteerMsg{Text: "focus on tests"}, agent.QueueSteer, runner.PromptSteer},
		{"steering when idle starts a run", 2, false, enter, msgs.SteerMsg{Text: "focus on tests"}, agent.QueueSteer, runner.PromptNew},
		{"a prompt as a new text", 3, true, enter, msgs.SteerMsg{Text: "a prompt"}, "", runner.PromptSteer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := withHistory(h)
			m.SetRunning(tt.running)
			for range tt.ups {
				m = keys(m, up)
			}
			if m.Holding() != tt.holding {
				t.Errorf("holding %q, want %q", m.Holding(), tt.holding)
			}
			m, got := press(m, tt.key)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("sent %#v, want %#v", got, tt.want)
			}
			sent, ok := m.Sent()
			if !ok || sent.Prompt.Kind != tt.kind {
				t.Errorf("recorded %+v, %v; want kind %q", sent, ok, tt.kind)
			}
			if m.Holding() != "" || m.Value() != "" {
				t.Errorf("after sending the editor holds %q (%q)", m.Value(), m.Holding())
			}
		})
	}
}

// TestRecalledPastes: a recalled item shows its placeholders and sends the
// pasted text.
func TestRecalledPastes(t *testing.T) {
	pasted := strings.Repeat("log line\n", 20)
	label := Placeholder(1, pasted)
	h := runner.PromptHistory{Workspace: "/ws", Prompts: []runner.Prompt{
		{ID: 1, Kind: runner.PromptNew, Text: "look at " + label, Pastes: []runner.Paste{{Label: label, Text: pasted}}}}}
	m := keys(withHistory(h), up)
	if !strings.Contains(m.View(), label) {
		t.Fatalf("the placeholder is not shown:\n%s", m.View())
	}
	m = keys(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(pasted + "x"), Paste: true})
	if strings.Count(m.Value(), "[paste #") != 2 || strings.Count(m.Value(), label) != 1 {
		t.Fatalf("a new paste's placeholder must differ from the recalled one's: %q", m.Value())
	}
	_, got := press(m, enter)
	if want := (msgs.SteerMsg{Text: "look at " + pasted + pasted + "x"}); !reflect.DeepEqual(got, want) {
		t.Errorf("sent %#v, want %#v", got, want)
	}
}

// TestRemember: what Submit records for the history.
func TestRemember(t *testing.T) {
	pasted := strings.Repeat("x\n", 20)
	tests := []struct {
		name    string
		keys    []any
		running bool
		send    tea.KeyMsg
		want    *runner.Prompt // nil: nothing recorded
	}{
		{"a prompt", []any{"hello"}, false, enter, &runner.Prompt{Kind: runner.PromptNew, Text: "hello"}},
		{"steering", []any{"focus"}, true, enter, &runner.Prompt{Kind: runner.PromptSteer, Text: "focus"}},
		{"a follow-up", []any{"later"}, true, altEnter, &runner.Prompt{Kind: runner.PromptFollowUp, Text: "later"}},
		{"trimmed", []any{"  hi  "}, false, enter, &runner.Prompt{Kind: runner.PromptNew, Text: "hi"}},
		{"a command as typed", []any{"/model x"}, true, enter, &runner.Prompt{Kind: runner.PromptNew, Text: "/model x"}},
		{"a command the list chose", []any{"/mo"}, false, enter, &runner.Prompt{Kind: runner.PromptNew, Text: "/model"}},
		{"a paste as its placeholder", []any{"see ", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(pasted), Paste: true}}, false, enter,
			&runner.Prompt{Kind: runner.PromptNew, Text: "see " + Placeholder(1, pasted),
				Pastes: []runner.Paste{{Label: Placeholder(1, pasted), Text: pasted}}}},
		{"nothing for an empty editor", []any{"   "}, false, enter, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newInput()
			m.SetRunning(tt.running)
			m, _ = press(keys(m, tt.keys...), tt.send)
			sent, ok := m.Sent()
			switch {
			case tt.want == nil && ok:
				t.Errorf("recorded %+v, want nothing", sent)
			case tt.want != nil && (!ok || !reflect.DeepEqual(sent.Prompt, *tt.want)):
				t.Errorf("recorded %+v, %v; want %+v", sent.Prompt, ok, *tt.want)
			}
			if _, again := m.Sent(); again {
				t.Error("Sent answered twice for one send")
			}
			if tt.want != nil && (len(m.hist.items) != 1 || m.hist.items[0].Text != tt.want.Text) {
				t.Errorf("the history holds %+v, want the item first", m.hist.items)
			}
		})
	}
}

// TestHistoryReadAgain: reading the history again keeps what this editor
// sent that the read does not hold, once, and the walk on its item.
func TestHistoryReadAgain(t *testing.T) {
	m := withHistory(prompts("two", "one"))
	m, _ = press(keys(m, "mine, saved"), enter)
	saved, _ := m.Sent()
	m, _ = press(keys(m, "mine, unsaved"), enter)
	m, _ = m.Update(HistorySavedMsg{Seq: saved.Seq, Prompt: runner.Prompt{ID: 3}})
	texts := func(m Model) []string {
		var out []string
		for _, e := range m.hist.items {
			out = append(out, e.Text)
		}
		return out
	}
	m = keys(m, up, up, up) // on "two"
	// Another process sent "elsewhere" (4) after "mine, saved" (3).
	read := runner.PromptHistory{Workspace: "/ws", Prompts: []runner.Prompt{{ID: 4, Text: "elsewhere"}, {ID: 3, Text: "mine, saved"},
		{ID: 2, Text: "two"}, {ID: 1, Text: "one"}}}
	m, _ = m.Update(HistoryLoadedMsg{History: read})
	if got, want := texts(m), []string{"mine, unsaved", "elsewhere", "mine, saved", "two", "one"}; !reflect.DeepEqual(got, want) {
		t.Errorf("history = %q, want %q", got, want)
	}
	if m.Value() != "two" || m.hist.pos != 3 {
		t.Errorf("the walk is on %q (item %d), want on two", m.Value(), m.hist.pos)
	}
	if m = keys(m, up); m.Value() != "one" {
		t.Errorf("up from two shows %q, want one", m.Value())
	}
	// A read that does not hold the saved item yet keeps it.
	m, _ = m.Update(HistoryLoadedMsg{History: prompts("two", "one")})
	if got, want := texts(m), []string{"mine, unsaved", "elsewhere", "mine, saved", "two", "one"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after an older read, history = %q, want %q", got, want)
	}
	// Another workspace's history replaces it.
	m.Reset()
	m, _ = m.Update(HistoryLoadedMsg{History: runner.PromptHistory{Workspace: "/other", Prompts: []runner.Prompt{{ID: 9, Text: "there"}}}})
	if got := texts(m); !reflect.DeepEqual(got, []string{"there"}) {
		t.Errorf("after a switch of workspace, history = %q", got)
	}
}

func TestHistoryErrorsAreHints(t *testing.T) {
	for _, msg := range []tea.Msg{HistoryLoadedMsg{Err: fmt.Errorf("disk on fire")}, HistorySavedMsg{Seq: 1, Err: fmt.Errorf("disk on fire")}} {
		_, cmd := newInput().Update(msg)
		if cmd == nil {
			t.Fatalf("%T with an error: no hint", msg)
		}
		if h, ok := cmd().(msgs.HintMsg); !ok || !strings.Contains(h.Text, "disk on fire") {
			t.Errorf("%T with an error gave %#v", msg, cmd())
		}
	}
}

// TestWalkStartReadsAgain: the start of a walk or a search asks for the
// history again (what other steer processes sent); the walk goes on.
func TestWalkStartReadsAgain(t *testing.T) {
	m := withHistory(prompts("two", "one"))
	for _, k := range []tea.KeyMsg{up, ctrlR} {
		m.Reset()
		var cmd tea.Cmd
		m, cmd = m.Update(k)
		if cmd == nil || cmd() != (LoadHistoryMsg{}) {
			t.Errorf("%s did not ask for the history", k)
		}
	}
	m.Reset()
	m, _ = m.Update(up)
	if _, cmd := m.Update(up); cmd != nil {
		t.Error("up within a walk asked for the history again")
	}
}

// TestTakenBackIsNotRecalled: an item taken back over a recalled one is
// labelled as taken back.
func TestTakenBackIsNotRecalled(t *testing.T) {
	m := withHistory(prompts("steer:focus"))
	m.SetSize(80, 3)
	m = keys(m, up)
	if !strings.Contains(m.View(), "history 1/1 · enter sends it as steering") {
		t.Fatalf("the recalled item is not labelled:\n%s", m.View())
	}
	m.TakeBack("from the queue", agent.QueueSteer)
	if v := m.View(); !strings.Contains(v, "taken back") || strings.Contains(v, "history") {
		t.Errorf("the taken-back item is labelled as recalled:\n%s", v)
	}
}
