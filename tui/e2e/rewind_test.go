package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRewindInTmux: in a git workspace with uncommitted changes and a
// stash, a write and a bash command that removes a.txt and appends to
// b.txt are taken back by /rewind to before both (code and conversation):
// a.txt is back, b.txt as before, and the user's git status, stash and
// HEAD are exactly as they were; /redo puts the rewound state back.
func TestRewindInTmux(t *testing.T) {
	ws := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@e", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = ws
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(ws, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(ws, name))
		if err != nil {
			return "<" + err.Error() + ">"
		}
		return string(b)
	}
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(ws, name))
		return err == nil
	}
	git("init", "-q")
	write("a.txt", "a committed\n")
	write("b.txt", "b committed\n")
	git("add", ".")
	git("commit", "-qm", "base")
	write("b.txt", "b committed\nstashed\n")
	git("stash", "-q")
	write("b.txt", "b committed\nuncommitted\n")
	write("notes.txt", "untracked\n")
	before := [3]string{git("status", "--porcelain"), git("stash", "list"), git("rev-parse", "HEAD")}

	p := startPane(t, fmt.Sprintf("cd %q && exec %q --state-dir %q --approve auto", ws, steerBin, t.TempDir()))
	p.typeText(`call write {"path": "a.txt", "content": "written by the agent\n"}`, "Enter")
	p.waitFor("the write", "The  write  tool returned", 10*time.Second)
	waitIdleAgain(p)
	p.typeText(`call bash {"command": "rm a.txt; echo x >> b.txt"}`, "Enter")
	p.waitFor("the command", "finished (exit code 0)", 10*time.Second)
	waitIdleAgain(p)
	if exists("a.txt") {
		t.Fatal("a.txt was not removed")
	}

	p.typeText("/rewind", "Enter")
	p.waitFor("the turns", "Rewind to before which turn?", 10*time.Second)
	p.waitFor("the first turn", "1. call write", 5*time.Second)
	p.typeText("", "Down")
	time.Sleep(quiet) // a deliberate key, not one typed ahead
	p.typeText("", "Enter")
	p.waitFor("what goes back", "Rewind: what goes back?", 10*time.Second)
	time.Sleep(quiet)
	p.typeText("b")
	p.waitFor("the preview", "Rewind to before turn 1?", 10*time.Second)
	if s := p.screen(); !strings.Contains(s, "a.txt") || !strings.Contains(s, "b.txt") {
		t.Fatalf("the preview does not name both files:\n%s", s)
	}
	time.Sleep(quiet)
	p.typeText("r")
	p.waitFor("the rewind", "rewind: 2 files restored", 10*time.Second)
	if got := read("a.txt"); got != "a committed\n" {
		t.Errorf("a.txt after the rewind: %q", got)
	}
	if got := read("b.txt"); got != "b committed\nuncommitted\n" {
		t.Errorf("b.txt after the rewind: %q", got)
	}
	after := [3]string{git("status", "--porcelain"), git("stash", "list"), git("rev-parse", "HEAD")}
	if after != before {
		t.Errorf("the user's git changed:\nbefore %q\nafter  %q", before, after)
	}

	p.typeText("/redo", "Enter")
	p.waitFor("the redo", "redo: ", 10*time.Second)
	if exists("a.txt") || read("b.txt") != "b committed\nuncommitted\nx\n" {
		t.Errorf("after /redo: a.txt %q, b.txt %q; want the rewound state back", read("a.txt"), read("b.txt"))
	}
}

// waitIdleAgain waits for the status line to say idle after a run (it says
// "idle ·" with the meter once the run is over).
func waitIdleAgain(p *pane) {
	p.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		s := p.screen()
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		if len(lines) >= 2 && strings.Contains(lines[len(lines)-2], "idle") {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the run did not end:\n%s", s)
		}
		time.Sleep(20 * time.Millisecond) // poll interval, not a wait for the app
	}
}
