package tui

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/tui/theme"
)

// phrases hold words that are also key names: typed fast, each must be
// stored exactly as typed.
var phrases = []string{
	"pick up the phone",
	"say enter now",
	"go left then right",
	"press esc or ctrl+c",
	"tab down home end",
}

// burst splits s the way Bubble Tea v1 delivers a burst of input without
// bracketed paste: a KeyRunes message per word, a KeySpace per space.
func burst(s string) []tea.Msg {
	var out []tea.Msg
	for i, w := range strings.Split(s, " ") {
		if i > 0 {
			out = append(out, tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
		}
		if w != "" {
			out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(w)})
		}
	}
	return out
}

// userTexts returns the texts of the user messages the runtime stored.
func userTexts(rt Runtime) []string {
	var out []string
	for _, m := range rt.State().Messages {
		if m.Role == agent.RoleUser {
			out = append(out, m.TextContent())
		}
	}
	return out
}

func replies(n int) []*agenttest.Response {
	var out []*agenttest.Response
	for i := 0; i < n; i++ {
		out = append(out, reply("ok."))
	}
	return out
}

func TestBurstsAreTextNotKeys(t *testing.T) {
	rt := newRuntime(t, nil, replies(len(phrases))...)
	tm := startProgram(t, rt)
	for i, p := range phrases {
		for _, msg := range burst(p) {
			tm.Send(msg)
		}
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
		want := i + 1
		teatest.WaitFor(t, tm.Output(), func([]byte) bool { return len(userTexts(rt)) == want },
			teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
		waitIdle(t, rt)
	}
	final := quit(t, tm)
	if got := userTexts(rt); strings.Join(got, "|") != strings.Join(phrases, "|") {
		t.Fatalf("stored %q, want %q", got, phrases)
	}
	for _, p := range phrases {
		if !strings.Contains(final.View(), "❯ "+p) {
			t.Errorf("the transcript lacks %q:\n%s", p, final.View())
		}
	}
}

// TestBurstInAnotherPaneGoesToTheEditor types a burst while the transcript
// has the focus: "up" and "enter" there would be the pane's own keys.
func TestBurstInAnotherPaneGoesToTheEditor(t *testing.T) {
	h := newHarness(t, newRuntime(t, nil), 80, 24)
	h.key(tea.KeyTab, false)
	if h.m.focus != focusChat {
		t.Fatal("tab did not focus the transcript")
	}
	for _, msg := range burst("up enter down") {
		h.send(msg)
	}
	if got := h.m.input.Value(); got != "up enter down" || h.m.focus != focusInput {
		t.Fatalf("editor = %q (focus %v), want the words in the focused editor", got, h.m.focus)
	}
	h.m.input.Reset()
	h.m, _ = h.m.handleOpenThinking()
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("esc")})
	if len(h.m.dialogs) != 1 {
		t.Fatal("a burst spelling esc closed the dialog")
	}
}

// TestBurstsThroughTheParser writes each phrase and its Enter in one write
// to the real program, so that Bubble Tea's own input parser splits them.
func TestBurstsThroughTheParser(t *testing.T) {
	rt := newRuntime(t, nil, replies(len(phrases))...)
	in, keys := io.Pipe()
	defer keys.Close()
	var screen agenttest.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, rt, Options{Theme: theme.Plain(), Profile: termenv.Ascii, Input: in, Output: &screen, Unsent: io.Discard})
	}()
	for i, p := range phrases {
		if _, err := keys.Write([]byte(p + "\r")); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for len(userTexts(rt)) < i+1 {
			if time.Now().After(deadline) {
				t.Fatalf("%q was not sent; stored %q", p, userTexts(rt))
			}
			time.Sleep(5 * time.Millisecond) // polling the runtime, not waiting for the app
		}
		waitIdle(t, rt)
	}
	cancel()
	<-done
	if got := userTexts(rt); strings.Join(got, "|") != strings.Join(phrases, "|") {
		t.Fatalf("stored %q, want %q", got, phrases)
	}
}

func waitIdle(t *testing.T, rt Runtime) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := rt.WaitForIdle(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestLateColourAnswerIsDropped: the terminal's answer to the start-up
// colour query, arriving after the program started, as Bubble Tea v1
// splits it, types nothing; other keys after Alt+] still count.
func TestLateColourAnswerIsDropped(t *testing.T) {
	h := newHarness(t, newRuntime(t, nil), 80, 24)
	for _, end := range []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune(`\`), Alt: true}, {Type: tea.KeyCtrlG}} {
		h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("]"), Alt: true})
		h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("11;rgb:1c1c/1c1c/1c1c")})
		h.send(end)
	}
	h.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("]"), Alt: true})
	h.typeText("ok 11;rgb:1/2/3")
	if got := h.m.input.Value(); got != "ok 11;rgb:1/2/3" {
		t.Fatalf("editor = %q", got)
	}
}
