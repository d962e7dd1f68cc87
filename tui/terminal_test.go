package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/tui/msgs"
)

func TestThemeSetting(t *testing.T) {
	if got := themeSetting(TerminalOptions{ConfigTheme: "light"}); got != "light" {
		t.Errorf("config only: %q", got)
	}
	if got := themeSetting(TerminalOptions{Theme: "dark", ConfigTheme: "light"}); got != "dark" {
		t.Errorf("the flag wins: %q", got)
	}
}

func TestWelcome(t *testing.T) {
	if got := welcome("scripted", false); !strings.HasPrefix(got, "Offline on the scripted provider") {
		t.Errorf("scripted: %q", got)
	}
	if got := welcome("anthropic", false); !strings.HasPrefix(got, "Type a message") || strings.Contains(got, "Offline") {
		t.Errorf("a real provider: %q", got)
	}
	if got := welcome("anthropic", true); !strings.HasPrefix(got, "No saved session in this directory: this is a new one. Type a message") {
		t.Errorf("nothing to continue: %q", got)
	}
	if got := workspaceNotice("/src/other"); got != "This session belongs to /src/other: the tools work there." {
		t.Errorf("a session of another workspace: %q", got)
	}
	if got := workspaceNotice(""); got != "" {
		t.Errorf("this workspace: %q", got)
	}
	for _, tc := range []struct {
		o    TerminalOptions
		want string
	}{
		{TerminalOptions{}, ""},
		{TerminalOptions{ModelNote: "the default model a/b cannot be used (K is not set): starting on the fallback c/d"},
			"The default model a/b cannot be used (K is not set): starting on the fallback c/d."},
		{TerminalOptions{Workspace: "/w", ModelNote: "starting on c/d"},
			"This session belongs to /w: the tools work there. Starting on c/d."},
	} {
		if got := notice(tc.o); got != tc.want {
			t.Errorf("notice(%+v) = %q, want %q", tc.o, got, tc.want)
		}
	}
}

// A resumed session has a transcript, so it gets no welcome; the notice
// that it works in another directory is shown all the same.
func TestNoticeShownUnderATranscript(t *testing.T) {
	const notice = "This session belongs to /src/other: the tools work there."
	rt := newRuntime(t, nil, agenttest.Reply().Text("first answer"))
	if err := rt.Prompt(context.Background(), "first question"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := rt.WaitForIdle(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		welcome, want string
	}{
		{"", notice},
		{"Type a message.", notice},
	} {
		msg := loadSession(rt, tc.welcome, notice)().(msgs.SessionLoadedMsg)
		if msg.Note != tc.want {
			t.Errorf("welcome %q: note = %q, want %q", tc.welcome, msg.Note, tc.want)
		}
	}
	h := newHarness(t, rt, 100, 24, func(o *Options) { o.Welcome, o.Notice = "Type a message.", notice })
	h.waitView("the tools work there")
	if strings.Contains(h.m.View(), "Type a message.") {
		t.Errorf("the welcome is shown under a transcript:\n%s", h.m.View())
	}
}
