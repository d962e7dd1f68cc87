package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestApprovalDialogInTmux: with the TUI's default (ask) a command waits for
// the user; y runs it, n denies it and the turn ends.
func TestApprovalDialogInTmux(t *testing.T) {
	p := startSteerAsking(t)
	p.typeText("run echo approved-run", "Enter")
	p.waitFor("the approval dialog", "Allow bash?", 10*time.Second)
	if s := p.screen(); !strings.Contains(s, "(y) Allow once") || !strings.Contains(s, "echo approved-run") {
		t.Fatalf("the dialog does not show the choices and the command:\n%s", s)
	}
	time.Sleep(quiet) // a deliberate key, not one typed ahead
	p.typeText("y")
	p.waitFor("the command's output", "✓ bash echo approved-run", 10*time.Second)

	p.typeText("run echo denied-run", "Enter")
	p.waitFor("the second dialog", "Allow bash?", 10*time.Second)
	time.Sleep(quiet)
	p.typeText("n")
	p.waitFor("the denial", "denied by the user", 10*time.Second)
	if s := p.screen(); strings.Contains(s, "✓ bash echo denied-run") {
		t.Fatalf("the denied command ran:\n%s", s)
	}
}

// TestEscapeSequencesFromToolsStayInert: a command that prints an OSC 52
// clipboard write or an OSC 2 title change leaves the tmux paste buffer and
// the pane title unchanged.
func TestEscapeSequencesFromToolsStayInert(t *testing.T) {
	p := startSteer(t)
	// As a terminal that honours OSC 52 would: an unsanitised write lands
	// in a paste buffer.
	p.tmux("set", "-g", "set-clipboard", "on")
	title := p.tmux("display-message", "-p", "#{pane_title}")
	before := p.buffers()
	p.typeText(`run printf '\033]52;c;aGVsbG8=\a'; echo clip-done`, "Enter")
	p.waitFor("the clipboard command", "clip-done", 10*time.Second)
	p.typeText(`run printf '\033]2;pwned\a'; echo title-done`, "Enter")
	p.waitFor("the title command", "title-done", 10*time.Second)
	if after := p.buffers(); after != before {
		t.Fatalf("the paste buffers changed: before %q, after %q", before, after)
	}
	if got := p.tmux("display-message", "-p", "#{pane_title}"); got != title || strings.Contains(got, "pwned") {
		t.Fatalf("the pane title changed: %q → %q", title, got)
	}
}

// buffers lists tmux's paste buffers (empty when there are none).
func (p *pane) buffers() string {
	p.t.Helper()
	out, _ := execTmux(p.socket, "list-buffers")
	return out
}
