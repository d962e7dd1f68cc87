package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pasteFile writes a file of 90,000 lines, 4.95 MB, for pasting.
func pasteFile(t *testing.T) (path, text string) {
	t.Helper()
	var b strings.Builder
	for i := range 90000 {
		fmt.Fprintf(&b, "%05d\t%s\n", i, strings.Repeat("x", 48))
	}
	path = filepath.Join(t.TempDir(), "paste.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, b.String()
}

// paste pastes file into the pane as a terminal does, in bracketed paste
// (tmux turns its line ends into CRs), and returns when tmux is done.
func (p *pane) paste(file string) {
	p.t.Helper()
	p.tmux("load-buffer", file)
	p.tmux("paste-buffer", "-p", "-d")
}

// TestLargePasteInTmux: a multi-MB bracketed paste shows as a placeholder
// and is stored byte for byte as the file it came from. How fast it shows
// is package pasteread's (TestLargePasteIsLinear, BenchmarkLargePaste): a
// stopwatch here failed on a loaded machine. The wait's bound is only a
// bound, though well short of the half minute a quadratic reader takes.
func TestLargePasteInTmux(t *testing.T) {
	file, text := pasteFile(t)
	state := t.TempDir()
	config := filepath.Join(t.TempDir(), "steer.json")
	if err := os.WriteFile(config, []byte(`{"agent": {"maxInputBytes": 8388608}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startPane(t, fmt.Sprintf("exec %q --state-dir %q --config %q --approve auto", steerBin, state, config))
	p.paste(file)
	took := p.waitFor("the placeholder", "[paste #1 · 90,000 lines · 5.0 MB]", 10*time.Second)
	t.Logf("placeholder shown %v after tmux finished pasting", took)
	p.typeText("", "Enter")
	p.waitFor("the answer", "You said: 00000", 15*time.Second)
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := userTexts(stored(t, state))
		if len(got) == 1 && got[0] == text {
			return
		}
		if time.Now().After(deadline) {
			n := 0
			if len(got) > 0 {
				n = len(got[0])
			}
			t.Fatalf("stored %d user messages, the first of %d bytes; want the file's %d bytes", len(got), n, len(text))
		}
		time.Sleep(50 * time.Millisecond) // poll interval
	}
}

// TestPasteOverTheLimitInTmux: over agent.maxInputBytes (4 MiB by
// default), the paste is refused with its size and stays in the editor.
func TestPasteOverTheLimitInTmux(t *testing.T) {
	file, _ := pasteFile(t)
	p := startSteer(t)
	p.paste(file)
	p.waitFor("the placeholder", "[paste #1 · 90,000 lines", 5*time.Second)
	p.typeText("", "Enter")
	p.waitFor("the refusal", "not sent: the input is 4.7 MiB, over the limit of 4.0 MiB", 5*time.Second)
	if s := p.screen(); !strings.Contains(s, "› [paste #1 · 90,000 lines") {
		t.Fatalf("the paste left the editor:\n%s", s)
	}
}
