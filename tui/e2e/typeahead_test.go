package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/tui/dialog"
)

// keyGap is the pace of a typist: one key every 150 ms.
const keyGap = 150 * time.Millisecond

// typedWord is what the typist types after a dialog opened: its keys are
// every answer the dialog has.
const typedWord = "yes any no"

// maxKeysAhead bounds the keys typed while waiting for the dialog, so that
// all that was typed stays on the editor's one line.
const maxKeysAhead = 60

// approvalCases are the three kinds of approval, as the scripted model asks
// for them. done shows only once the call was allowed and ran: the parent's
// "Delegated …" line comes as soon as the sub-agent starts, before its
// question, so the sub-agent's case waits for its answer about the command.
var approvalCases = []struct {
	name, prompt, title, done string
}{
	{"write", `call write {"path":"x.txt","content":"hi"}`, "Allow write?", "✓ write"},
	{"bash", "run sleep 1", "Allow bash?", "✓ bash sleep 1"},
	{"sub-agent", "delegate run sleep 1", "Allow bash? (sub-agent s_", "`sleep 1` finished (exit code 0)"},
}

// typeAcross types as a typist does across a dialog's opening, one key
// every keyGap on a ticker (looking at the screen, on another goroutine,
// never slows the pace past dialog.TypeAheadPause): the runes of typedWord
// over and over until shows reports the dialog, then typedWord in full. It
// returns what it typed and how many keys came before the dialog showed;
// however long the dialog takes to open, keys come after it.
func typeAcross(t *testing.T, shows func() bool, press func(string)) (typed string, before int) {
	t.Helper()
	opened := make(chan struct{})
	go func() {
		defer close(opened)
		for !shows() {
			select {
			case <-t.Context().Done():
				return
			case <-time.After(10 * time.Millisecond): // poll interval
			}
		}
	}()
	tick := time.NewTicker(keyGap) // the typist's pace
	defer tick.Stop()
	var b strings.Builder
	key := func(r rune) {
		press(string(r))
		b.WriteRune(r)
		<-tick.C
	}
	for i := 0; ; i++ {
		select {
		case <-opened:
			for _, r := range typedWord {
				key(r)
			}
			return b.String(), before
		default:
		}
		if i == maxKeysAhead {
			t.Fatalf("the dialog did not open within %d keys (%v)", maxKeysAhead, maxKeysAhead*keyGap)
		}
		before++
		key([]rune(typedWord)[i%len(typedWord)])
	}
}

// TestTypedAheadInTmux: keys typed one at a time, 150 ms apart, from the
// moment the prompt is sent until well after the dialog opened, never
// answer it and land in the editor; y pressed alone once the pause has
// ended allows; a burst "yes" never answers.
func TestTypedAheadInTmux(t *testing.T) {
	for _, c := range approvalCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := startSteerAsking(t)
			p.typeText(c.prompt, "Enter")
			typed, before := typeAcross(t, func() bool {
				s, err := execTmux(p.socket, "capture-pane", "-p")
				return err == nil && strings.Contains(s, c.title)
			}, func(key string) { p.typeText(key) })
			t.Logf("%d keys typed before the dialog showed", before)
			s := p.screen()
			if !strings.Contains(s, c.title) || strings.Contains(s, c.done) {
				t.Fatalf("the typing answered the dialog:\n%s", s)
			}
			p.waitFor("the keys typed in the editor", "› "+typed, 5*time.Second)
			time.Sleep(quiet) // no key for a while: the pause ends
			p.waitGone("the pause note", dialog.PausedNote, 5*time.Second)
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
			typed, before := typeAcross(t, func() bool {
				return strings.Contains(r.screenText(), c.title)
			}, func(key string) { r.write(key) })
			t.Logf("%d keys typed before the dialog showed", before)
			if strings.Contains(r.screenText(), c.done) {
				t.Fatalf("the typing answered the dialog; output:\n%q", r.raw())
			}
			time.Sleep(quiet) // no key for a while: the pause ends
			r.waitPauseEnded(c.title, 5*time.Second)
			r.write("y")
			r.waitText("the allowed call", c.done, 15*time.Second)
			r.write("\r") // sends what was typed
			deadline := time.Now().Add(10 * time.Second)
			for !contains(userTexts(stored(t, r.stateDir)), typed) {
				if time.Now().After(deadline) {
					t.Fatalf("the typed keys were not sent as typed: stored %q", userTexts(stored(t, r.stateDir)))
				}
				time.Sleep(50 * time.Millisecond) // poll interval
			}
			r.quit()
		})
	}
}

// waitPauseEnded waits until the dialog titled title was last drawn
// without dialog.PausedNote: the renderer redraws only the lines that
// changed, so the last drawing of the title's line is what the terminal
// shows, and once the note is gone steer's clock has passed the pause.
func (r *ptyRun) waitPauseEnded(title string, timeout time.Duration) {
	r.t.Helper()
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) { // poll interval
		s := r.screenText()
		i := strings.LastIndex(s, title)
		if i < 0 {
			r.t.Fatalf("no dialog %q; output:\n%q", title, r.raw())
		}
		line, _, _ := strings.Cut(s[i:], "│") // the frame's right edge ends the line
		if !strings.Contains(line, dialog.PausedNote) {
			return
		}
		if time.Since(start) > timeout {
			r.t.Fatalf("the dialog's keys were still paused %v after the last key; output:\n%q", timeout, r.raw())
		}
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
