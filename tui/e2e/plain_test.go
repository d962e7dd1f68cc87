package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// cursorMoves are what a plain front end must never write: cursor
// movement and erasing (CSI A/B/C/D/H/J/K/f), the alternate screen and
// hiding the cursor.
var cursorMoves = regexp.MustCompile(`\x1b\[[0-9;?]*[ABCDHJKf]|\x1b\[\?1049[hl]|\x1b\[\?25l`)

// TestPlainModeIsAppendOnly: --plain on a real pty answers, asks an
// approval as a line, takes the answer from the next line, and writes
// nothing but lines of text: no escape sequence at all.
func TestPlainModeIsAppendOnly(t *testing.T) {
	r := startPTY(t, "--plain")
	r.waitText("the welcome", "steer, plain mode", 10*time.Second)
	r.write("hello\r")
	r.waitText("the answer", "steer: You said: hello", 10*time.Second)
	r.write("run echo plain-ok\r")
	r.waitText("the approval question", "? y (allow), a (always), n (deny)", 10*time.Second)
	r.write("y\r")
	r.waitText("the tool's result", "tool bash ok:\r\n  plain-ok", 10*time.Second)
	r.write("/quit\r")
	select {
	case <-r.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("steer --plain did not end on /quit; output:\n%q", r.raw())
	}
	raw := r.raw()
	if m := cursorMoves.FindString(raw); m != "" {
		t.Errorf("the output moves the cursor (%q):\n%q", m, raw)
	}
	if strings.Contains(raw, "\x1b") {
		t.Errorf("the output holds escape sequences:\n%q", raw)
	}
	for _, want := range []string{"you: hello", "approval: allow"} {
		if !strings.Contains(raw, want) {
			t.Errorf("output lacks %q:\n%q", want, raw)
		}
	}
}
