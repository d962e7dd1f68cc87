package tui

import (
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
)

// keyAt is a key the test presses at a time relative to the dialog's
// opening.
type keyAt struct {
	at  time.Duration
	key tea.KeyMsg
}

func runeKey(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// answers runs cmd and what it leads to, and returns the approval answers
// among the messages (CloseDialogMsg is routed; nothing else is).
func answers(m Model, cmd tea.Cmd) (Model, []answerApprovalMsg) {
	var got []answerApprovalMsg
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		if c == nil {
			return
		}
		switch msg := c().(type) {
		case answerApprovalMsg:
			got = append(got, msg)
		case tea.BatchMsg:
			for _, c := range msg {
				run(c)
			}
		default:
			// tea.Sequence's message is an unexported []Cmd.
			if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice {
				for i := range v.Len() {
					if c, ok := v.Index(i).Interface().(tea.Cmd); ok {
						run(c)
					}
				}
				return
			}
			if msg != nil {
				if _, ok := msg.(guardTickMsg); !ok {
					next, _ := m.Update(msg)
					m = next.(Model)
				}
			}
		}
	}
	run(cmd)
	return m, got
}

// noAnswer stands for no answer in the tables.
const noAnswer = runner.ApprovalDecision(-1)

// TestTypedAheadNeverAnswers: keys typed as an approval opens, or while the
// user types, or in a burst, go to the editor as typed; a key pressed alone
// after the pause answers.
func TestTypedAheadNeverAnswers(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	typed := func(start int, s string) []keyAt { // one key every 150 ms
		var keys []keyAt
		for i, r := range s {
			keys = append(keys, keyAt{ms(start + 150*i), runeKey(string(r))})
		}
		return keys
	}
	tests := []struct {
		name       string
		keys       []keyAt
		want       runner.ApprovalDecision // noAnswer when nothing answers
		wantEditor string
	}{
		{"y as it opens", []keyAt{{0, runeKey("y")}}, noAnswer, "y"},
		{"a sentence typed across its opening", typed(-400, "yay any"), noAnswer, "yay any"},
		{"typing starts 300 ms after", typed(300, "yna"), noAnswer, "yna"},
		{"Enter ends a sentence typed as it opens", append(typed(-150, "ok"), keyAt{ms(150), tea.KeyMsg{Type: tea.KeyEnter}}), noAnswer, ""},
		{"a burst long after", []keyAt{{ms(2000), runeKey("yes")}}, noAnswer, "yes"},
		{"y alone 600 ms after", []keyAt{{ms(600), runeKey("y")}}, runner.ApproveOnce, ""},
		{"typing, a pause, then a", append(typed(-300, "no"), keyAt{ms(400), runeKey("a")}), runner.ApproveSession, "no"},
		{"Enter alone 600 ms after", []keyAt{{ms(600), tea.KeyMsg{Type: tea.KeyEnter}}}, runner.ApproveOnce, ""},
		{"Esc as it opens denies", []keyAt{{0, tea.KeyMsg{Type: tea.KeyEsc}}}, runner.ApproveDeny, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := &fakeClock{t: epoch}
			m := New(nil, Options{Now: clk.Now})
			m.running = true
			open := func() {
				req := runner.ApprovalRequest{ID: "call_1", ToolName: "write", Summary: "write x.txt"}
				next, _ := m.Update(runEvents(agent.Annotation{Kind: runner.AnnotationApprovalRequest, Data: req}))
				m = next.(Model)
			}
			opened := false
			var got []answerApprovalMsg
			for _, k := range tt.keys {
				if !opened && k.at >= 0 {
					open()
					opened = true
				}
				clk.t = epoch.Add(k.at)
				next, cmd := m.Update(k.key)
				var a []answerApprovalMsg
				m, a = answers(next.(Model), cmd)
				got = append(got, a...)
			}
			switch {
			case tt.want == noAnswer && len(got) > 0:
				t.Fatalf("answered %v", got[0].decision)
			case tt.want != noAnswer && (len(got) != 1 || got[0].decision != tt.want):
				t.Fatalf("answers %v, want %v", got, tt.want)
			case tt.want == noAnswer && len(m.dialogs) != 1:
				t.Fatalf("the question closed noAnswer")
			}
			if v := m.input.Value(); v != tt.wantEditor {
				t.Fatalf("the editor holds %q, want %q", v, tt.wantEditor)
			}
		})
	}
}

// TestPauseNoteComesAndGoes: the question says it ignores keys while it
// does; the tick at the end of the pause takes the note away.
func TestPauseNoteComesAndGoes(t *testing.T) {
	clk := &fakeClock{t: epoch}
	m := New(nil, Options{Now: clk.Now})
	next, _ := m.Update(runeKey("h"))
	m = next.(Model)
	clk.Add(100 * time.Millisecond)
	req := runner.ApprovalRequest{ID: "call_1", SessionID: "s_child", ToolName: "bash", Summary: "sleep 1"}
	next, cmd := m.Update(runEvents(agent.Annotation{Kind: runner.AnnotationApprovalRequest, Data: req}))
	m = next.(Model)
	if v := m.View(); !contains(v, "Allow bash? (sub-agent s_child)") || !contains(v, "keys paused: you were typing") {
		t.Fatalf("the paused question:\n%s", v)
	}
	if cmd == nil {
		t.Fatal("no tick scheduled for the end of the pause")
	}
	clk.Add(400 * time.Millisecond)
	next, _ = m.Update(guardTickMsg{})
	m = next.(Model)
	if v := m.View(); contains(v, "keys paused") {
		t.Fatalf("the note stays after the pause:\n%s", v)
	}
}

func runEvents(evs ...agent.Event) msgs.RunEventMsg { return msgs.RunEventMsg{RunID: 1, Events: evs} }

func contains(s, sub string) bool { return strings.Contains(s, sub) }
