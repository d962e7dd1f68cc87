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

// The synchronized-output tests play a terminal on a bare pty: one that
// answers DECRQM 2026 as supported, one that answers nothing.

const (
	syncQuery = "\x1b[?2026$p"
	syncBegin = "\x1b[?2026h"
	syncEnd   = "\x1b[?2026l"
)

// longAnswerScenario writes a scenario whose first answer streams 20,000
// words (in paragraphs, as an answer has them), ending with lastWord. It
// streams at --pace 0, as fast as steer takes it: a paced stream would
// sleep per chunk and take close to a minute.
func longAnswerScenario(t *testing.T, lastWord string) string {
	t.Helper()
	var b strings.Builder
	for i := range 20000 - 1 {
		fmt.Fprintf(&b, "word%d", i)
		switch {
		case i%25 == 24:
			b.WriteString("\n\n")
		default:
			b.WriteString(" ")
		}
	}
	b.WriteString(lastWord)
	body, err := json.Marshal(map[string]any{
		"description": "one long answer",
		"steps":       []map[string]any{{"text": b.String()}},
	})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "long.json")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// frameMove is the cursor move every frame starts its lines with (the
// screen's moveTo); Open's own home move has no row number.
var frameMove = regexp.MustCompile(`\x1b\[[0-9]+H`)

// unwrapped is out without its synchronized frames: what was written
// outside the brackets.
func unwrapped(out string) string {
	var rest strings.Builder
	for {
		i := strings.Index(out, syncBegin)
		if i < 0 {
			rest.WriteString(out)
			return rest.String()
		}
		rest.WriteString(out[:i])
		j := strings.Index(out[i:], syncEnd)
		if j < 0 {
			return rest.String() + out[i:] // a frame cut off: counted as unwrapped
		}
		out = out[i+j+len(syncEnd):]
	}
}

func TestSynchronizedOutput(t *testing.T) {
	tests := []struct {
		name    string
		answers bool
		late    bool // answers after the query's budget
	}{
		{"a terminal that supports 2026", true, false},
		{"a terminal that does not answer", false, false},
		{"a terminal that answers too late", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const last = "zebra-the-end"
			r := startPTY(t, "--scenario", longAnswerScenario(t, last))
			var asked, firstFrame time.Time
			for deadline := time.Now().Add(10 * time.Second); firstFrame.IsZero(); time.Sleep(2 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("no first frame; output:\n%q", r.raw())
				}
				out := r.raw()
				if asked.IsZero() && strings.Contains(out, syncQuery) {
					asked = time.Now()
					if tt.answers {
						r.write("\x1b[?2026;2$y\x1b[?62;22c")
					}
				}
				if frameMove.MatchString(out) {
					firstFrame = time.Now()
				}
			}
			if asked.IsZero() {
				t.Fatalf("steer drew before asking about synchronized output; output:\n%q", r.raw())
			}
			if wait := firstFrame.Sub(asked); wait > time.Second {
				t.Errorf("the first frame came %v after the query, want under 1 s", wait)
			}
			r.waitText("the first screen", "scripted/echo", 10*time.Second)
			if tt.late {
				// The program reads it as an unknown sequence, never as
				// typed text: the editor shows only what is typed next.
				r.write("\x1b[?2026;2$y\x1b[?62;22c")
				r.write("typed")
				r.waitText("the typed text", "typed", 5*time.Second)
				if s := r.screenText(); strings.Contains(s, "2026") || strings.Contains(s, "62;22") {
					t.Fatalf("the late answer leaked into the screen:\n%s", s)
				}
				r.write("\x15") // Ctrl+U: clear the editor's line
			}
			r.write("go\r")
			r.waitText("the end of the long answer", last, 60*time.Second)
			r.quit()

			out := r.raw()
			frames := strings.Count(out, syncBegin)
			t.Logf("%d synchronized frames, %d bytes", frames, len(out))
			if !tt.answers {
				if frames > 0 || strings.Contains(out, syncEnd) {
					t.Fatalf("%d frames wrapped for a terminal that never said it supports 2026", frames)
				}
				return
			}
			if frames < 5 {
				t.Fatalf("only %d synchronized frames during a 20,000-word stream", frames)
			}
			if rest := unwrapped(out); frameMove.MatchString(rest) {
				i := frameMove.FindStringIndex(rest)[0]
				t.Fatalf("a frame written outside the brackets, at %q", rest[max(i-80, 0):min(i+80, len(rest))])
			}
		})
	}
}
