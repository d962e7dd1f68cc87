package e2e

import (
	"fmt"
	"os/exec"
	"testing"
	"time"
)

// startSteerIn runs steer in workspace ws on state directory state, as
// startSteer does in temporary ones: a restart in the same place.
func startSteerIn(t *testing.T, ws, state string) *pane {
	t.Helper()
	return startPane(t, fmt.Sprintf("cd %q && exec %q --state-dir %q --approve auto", ws, steerBin, state))
}

// quitSteer presses Ctrl+C twice and waits for steer, and so its tmux
// session, to end.
func quitSteer(t *testing.T, p *pane) {
	t.Helper()
	p.typeText("", "C-c", "C-c")
	deadline := time.Now().Add(5 * time.Second)
	for exec.Command("tmux", "-L", p.socket, "has-session").Run() == nil {
		if time.Now().After(deadline) {
			t.Fatalf("steer did not quit; the screen:\n%s", p.screen())
		}
		time.Sleep(20 * time.Millisecond) // poll interval, not a wait for the app
	}
}

// TestHistoryAcrossRestarts sends three prompts, quits, starts steer again
// in the same workspace and state directory: ↑ ↑ shows the second prompt,
// Ctrl+R finds it, and a recalled steering item is sent as steering while a
// run is active.
func TestHistoryAcrossRestarts(t *testing.T) {
	ws, state := t.TempDir(), t.TempDir()
	p := startSteerIn(t, ws, state)
	for _, prompt := range []string{"first prompt", "second prompt", "third prompt"} {
		p.typeText(prompt, "Enter")
		p.waitFor("the answer to "+prompt, "You said: "+prompt, 10*time.Second)
	}
	quitSteer(t, p)

	p = startSteerIn(t, ws, state)
	p.typeText("", "Up")
	p.waitFor("the newest prompt", "› third prompt", 2*time.Second)
	p.typeText("", "Up")
	p.waitFor("the second prompt", "› second prompt", 2*time.Second)
	p.waitFor("the walk's label", "history 2/3", time.Second)

	p.typeText("", "Down", "Down")
	p.waitFor("the draft back", "› Ask anything", 2*time.Second)
	p.typeText("", "C-r")
	p.waitFor("the search", "(reverse-i-search)`'", 2*time.Second)
	p.typeText("sec")
	p.waitFor("the match", "(reverse-i-search)`sec': second prompt", 2*time.Second)
	p.typeText("", "Enter")
	p.waitFor("the match in the editor", "history 2/3", 2*time.Second)

	// Steering sent during a run, recalled during the next one, is steering.
	p.typeText("", "C-u")
	p.waitFor("the editor cleared", "› Ask anything", 2*time.Second)
	p.typeText("run sleep 2", "Enter")
	p.waitFor("the tool to start", "bash sleep 2", 10*time.Second)
	p.typeText("focus on tests", "Enter")
	p.waitFor("the steering queued", "steer     › focus on tests", 2*time.Second)
	p.waitFor("the steered answer", "Steering received: focus on tests", 15*time.Second)
	p.waitFor("the run to end", "finished (exit code 0)", 15*time.Second)
	p.waitFor("idle", " idle ", 5*time.Second)
	p.typeText("run sleep 3", "Enter")
	p.waitFor("the second tool to start", "bash sleep 3", 10*time.Second)
	p.typeText("", "Up")
	p.waitFor("the newest item", "› run sleep 3", 2*time.Second)
	p.typeText("", "Up")
	p.waitFor("the steering recalled", "› focus on tests", 2*time.Second)
	p.waitFor("its kind", "history 2/", time.Second)
	p.waitFor("its kind", "enter sends it as steering", time.Second)
	p.typeText("", "Enter")
	p.waitFor("the recalled steering queued", "steer     › focus on tests", 2*time.Second)
}
