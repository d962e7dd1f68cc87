package e2e

import (
	"strings"
	"testing"
	"time"
)

// keyGap is the pace of a typist: one key every 150 ms.
const keyGap = 150 * time.Millisecond

// typedWord is what the typist types across a dialog's opening: its keys
// are every answer the dialog has.
const typedWord = "yes any no"

// approvalCases are the three kinds of approval, as the scripted model asks
// for them.
var approvalCases = []struct {
	name, prompt, title, done string
}{
	{"write", `call write {"path":"x.txt","content":"hi"}`, "Allow write?", "✓ write"},
	{"bash", "run sleep 1", "Allow bash?", "✓ bash sleep 1"},
	{"sub-agent", "delegate run sleep 1", "Allow bash? (sub-agent s_", "Delegated"},
}

// TestTypedAheadInTmux: keys typed one at a time, 150 ms apart, from the
// moment the prompt is sent until well after the dialog opened, never
// answer it and land in the editor; y pressed alone 600 ms later allows;
// a burst "yes" never answers.
func TestTypedAheadInTmux(t *testing.T) {
	for _, c := range approvalCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := startSteerAsking(t)
			p.typeText(c.prompt, "Enter")
			before, after := 0, 0
			for _, r := range typedWord {
				if strings.Contains(p.screen(), c.title) {
					after++
				} else {
					before++
				}
				p.typeText(string(r))
				time.Sleep(keyGap) // the typist's pace
			}
			t.Logf("%d keys typed before the dialog showed, %d after", before, after)
			s := p.screen()
			if !strings.Contains(s, c.title) {
				t.Fatalf("the dialog opened not while typing, or the typing answered it (%d keys before it, %d after):\n%s", before, after, s)
			}
			if after == 0 {
				t.Fatalf("the dialog opened only after the typing:\n%s", s)
			}
			if !strings.Contains(s, "› "+typedWord) {
				t.Fatalf("the keys typed are not in the editor:\n%s", s)
			}
			time.Sleep(quiet) // no key for a while: the pause ends
			p.waitGone("the pause note", "keys paused", time.Second)
			p.typeText("y")
			p.waitFor("the allowed call", c.done, 15*time.Second)
		})
	}
}

// quiet is a gap with no key longer than the dialog's pause (400 ms,
// dialog.TypeAheadPause): a key after it is deliberate.
const quiet = 600 * time.Millisecond

// TestBurstNeverAnswersInTmux: "yes" arriving at once, long after the
// dialog opened, is text for the editor.
func TestBurstNeverAnswersInTmux(t *testing.T) {
	p := startSteerAsking(t)
	p.typeText("run sleep 1", "Enter")
	p.waitFor("the dialog", "Allow bash?", 10*time.Second)
	time.Sleep(quiet)
	p.typeText("yes")
	p.waitFor("the burst in the editor", "› yes", 2*time.Second)
	time.Sleep(quiet)
	if s := p.screen(); !strings.Contains(s, "Allow bash?") || strings.Contains(s, "bash sleep 1 ·") {
		t.Fatalf("the burst answered the dialog:\n%s", s)
	}
	p.typeText("n")
	p.waitFor("the denial", "denied by the user", 10*time.Second)
}

// waitGone polls the screen until text is no longer on it.
func (p *pane) waitGone(what, text string, timeout time.Duration) {
	p.t.Helper()
	for start := time.Now(); strings.Contains(p.screen(), text); time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > timeout {
			p.t.Fatalf("%s: %q still shown after %v:\n%s", what, text, timeout, p.screen())
		}
	}
}

// TestTypedAheadOnAPty: the same on a bare terminal, where each key is one
// write: the typed keys answer nothing and are sent, as typed, by the
// Enter that follows; y alone allows.
func TestTypedAheadOnAPty(t *testing.T) {
	for _, c := range approvalCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := startPTY(t)
			r.waitText("the first frame", "scripted/echo", 5*time.Second)
			r.write(c.prompt + "\r")
			seen := 0
			for i, ch := range typedWord {
				if seen == 0 && strings.Contains(r.screenText(), strings.TrimSuffix(c.title, "?")) {
					seen = i + 1
				}
				r.write(string(ch))
				time.Sleep(keyGap) // the typist's pace
			}
			if seen == 0 && !strings.Contains(r.screenText(), strings.TrimSuffix(c.title, "?")) {
				t.Fatalf("the dialog did not open while typing; output:\n%q", r.raw())
			}
			if strings.Contains(r.screenText(), c.done) {
				t.Fatalf("the typing answered the dialog; output:\n%q", r.raw())
			}
			time.Sleep(quiet)
			r.write("y")
			r.waitText("the allowed call", c.done, 15*time.Second)
			r.write("\r") // sends what was typed
			deadline := time.Now().Add(10 * time.Second)
			for !contains(userTexts(stored(t, r.stateDir)), typedWord) {
				if time.Now().After(deadline) {
					t.Fatalf("the typed keys were not sent as typed: stored %q", userTexts(stored(t, r.stateDir)))
				}
				time.Sleep(50 * time.Millisecond) // poll interval
			}
			r.quit()
		})
	}
}

func contains(texts []string, want string) bool {
	for _, s := range texts {
		if s == want {
			return true
		}
	}
	return false
}
