package e2e

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// todoCall is a scripted todo call: one item of each status.
const todoCall = `call todo {"items": [{"text": "read the parser", "status": "done"}, ` +
	`{"text": "fix the bug", "status": "in_progress"}, {"text": "add a test", "status": "pending"}]}`

// pinnedTodo are the lines of the unfolded list above the editor.
var pinnedTodo = []string{"todo 1/3", "[x] read the parser", "[~] fix the bug", "[ ] add a test"}

// TestTodoListIsPinned: a todo call pins its list above the editor, one
// marked line per item; Alt+T folds it to one line and back; steer
// started again with --continue pins the session's list at once.
func TestTodoListIsPinned(t *testing.T) {
	workspace, state := t.TempDir(), t.TempDir()
	shell := fmt.Sprintf("cd %q && exec %q --state-dir %q --approve auto", workspace, steerBin, state)
	p := startPane(t, shell)
	p.typeText(todoCall, "Enter")
	p.waitFor("the pinned list", "todo 1/3", 10*time.Second)
	p.waitPinned("the unfolded list", pinnedTodo)

	p.typeText("", "M-t")
	p.waitFor("the folded line", "todo 1/3 · doing: fix the bug", 2*time.Second)
	if s := p.screen(); strings.Contains(s, "[ ] add a test") {
		t.Fatalf("the folded list still shows its items:\n%s", s)
	}
	p.typeText("", "M-t")
	p.waitPinned("the list unfolded again", pinnedTodo)

	p.typeText("", "C-c", "C-c")
	for deadline := time.Now().Add(5 * time.Second); exec.Command("tmux", "-L", p.socket, "has-session").Run() == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("steer did not quit; the screen:\n%s", p.screen())
		}
	}
	again := startPaneShowing(t, shell+" --continue", "todo 1/3")
	again.waitPinned("the list after a restart", pinnedTodo)
}

// waitPinned polls the screen until lines show one under the other, the
// last of them right above the editor's rule.
func (p *pane) waitPinned(what string, lines []string) {
	p.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		s := p.screen()
		if pinnedAboveEditor(s, lines) {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: %q not pinned above the editor:\n%s", what, lines, s)
		}
		time.Sleep(20 * time.Millisecond) // poll interval, not a wait for the app
	}
}

// pinnedAboveEditor reports whether screen shows want as consecutive lines
// (each trimmed) followed by the editor's rule.
func pinnedAboveEditor(screen string, want []string) bool {
	rows := strings.Split(screen, "\n")
	for i := 0; i+len(want) < len(rows); i++ {
		match := true
		for j, w := range want {
			if strings.TrimSpace(rows[i+j]) != w {
				match = false
				break
			}
		}
		if match && strings.HasPrefix(strings.TrimSpace(rows[i+len(want)]), "─") {
			return true
		}
	}
	return false
}
