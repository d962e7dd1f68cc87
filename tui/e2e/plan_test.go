package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// planFileName finds the plan file's name (plans/s_….md) on the screen.
var planFileName = regexp.MustCompile(`plans/(s_[0-9a-f]+\.md)`)

// TestPlanModeInTmux: /plan turns plan mode on (the status bar and the
// notice with the plan file); the model's write of x.go is refused with the
// mode's reason; its write of the plan file opens the plan, rendered; Ctrl+G
// edits it in $EDITOR and the question comes back with the edit; a
// approves into auto: the mode switches and the plan, as edited, is sent as
// the next user message; Alt+P turns plan mode on again.
func TestPlanModeInTmux(t *testing.T) {
	workspace, state := t.TempDir(), t.TempDir()
	editor := filepath.Join(t.TempDir(), "edit-plan")
	script := "#!/bin/sh\nprintf '3. edited in the editor\\n' >> \"$1\"\n"
	if err := os.WriteFile(editor, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	p := startPane(t, fmt.Sprintf("cd %q && VISUAL= EDITOR=%q exec %q --state-dir %q", workspace, editor, steerBin, state))
	p.waitIdle("the first screen")
	p.typeText("/plan", "Enter")
	p.waitFor("the plan mode notice", "plan mode: only read-only tools run until you approve a plan", 5*time.Second)
	p.waitFor("the status bar", "⏸ plan mode", 2*time.Second)
	name := planFileName.FindStringSubmatch(p.screen())
	if name == nil {
		t.Fatalf("the notice names no plan file:\n%s", p.screen())
	}
	plan := filepath.Join(state, "plans", name[1])

	p.typeText(`call write {"path": "x.go", "content": "package x\n"}`, "Enter")
	p.waitFor("the refusal", "plan mode: only read-only tools run until the plan is approved; write the plan to", 10*time.Second)
	p.waitIdle("the refused run's end") // the next prompt must start a run, not steer this one
	if _, err := os.Stat(filepath.Join(workspace, "x.go")); err == nil {
		t.Fatal("x.go was written in plan mode")
	}

	args, _ := json.Marshal(map[string]any{"path": plan, "content": "# Plan\n\n1. add x.go\n2. test it\n"})
	p.typeText("call write "+string(args), "Enter")
	p.waitFor("the plan's question", "The plan", 10*time.Second)
	p.waitFor("the plan rendered", "2. test it", 2*time.Second)
	if s := p.screen(); !strings.Contains(s, "(a) Approve, and let it run") || !strings.Contains(s, "(e) Edit the plan in $EDITOR") {
		t.Fatalf("the question lacks its choices:\n%s", s)
	}
	time.Sleep(quiet) // a deliberate key, not one typed ahead
	p.typeText("", "C-g")
	p.waitFor("the plan as edited", "3. edited in the editor", 10*time.Second)
	p.waitFor("the question again", "(a) Approve, and let it run", 2*time.Second)
	time.Sleep(quiet)
	p.typeText("a")
	p.waitFor("the switch", "tool approval is now auto", 10*time.Second)
	p.waitFor("the plan sent", "❯ Carry out this plan:", 10*time.Second)
	p.waitFor("the edit sent with it", "You said: Carry out this plan: # Plan 1. add x.go 2. test it 3. edited in the editor", 10*time.Second)
	p.waitIdle("the plan's run")
	if bar := statusBar(p.screen()); bar == "" || strings.Contains(bar, "plan mode") {
		t.Fatalf("the status bar still shows plan mode (or is not found): %q\n%s", bar, p.screen())
	}
	p.typeText("", "M-p")
	p.waitFor("plan mode again", "⏸ plan mode", 5*time.Second)
}

// waitIdle polls until the status bar says idle: no run is active.
func (p *pane) waitIdle(what string) {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(statusBar(p.screen()), "idle") {
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: the status bar does not say idle:\n%s", what, p.screen())
		}
		time.Sleep(20 * time.Millisecond) // poll interval, not a wait for the app
	}
}

// statusBar is the status line: the line under the editor's.
func statusBar(screen string) string {
	rows := strings.Split(screen, "\n")
	for i := len(rows) - 1; i > 0; i-- {
		if strings.HasPrefix(strings.TrimSpace(rows[i-1]), "›") && strings.Contains(rows[i], "·") {
			return rows[i]
		}
	}
	return ""
}
