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

// TestApprovalGrantSavedToTheProject: p in the approval dialog of a read
// outside the workspace saves a rule for that directory to the project's
// config: the next read there runs unasked, one elsewhere still asks, and
// the next steer process honours the saved rule.
func TestApprovalGrantSavedToTheProject(t *testing.T) {
	root := t.TempDir()
	ws, state := filepath.Join(root, "ws"), t.TempDir()
	for _, f := range []string{"ws/README.md", "x/a.txt", "x/b.txt", "y/c.txt"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("content of "+f+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p := startPane(t, fmt.Sprintf("cd %q && exec %q --state-dir %q", ws, steerBin, state))
	p.typeText(`call read {"path": "../x/a.txt"}`, "Enter")
	p.waitFor("the approval dialog", "Allow read?", 10*time.Second)
	if s := p.screen(); !strings.Contains(s, "(p) Always allow: save to the project config") || !strings.Contains(s, "/x/**)") {
		t.Fatalf("the dialog offers no rule for the directory:\n%s", s)
	}
	time.Sleep(quiet)
	p.typeText("p")
	p.waitFor("the file read", "content of x/a.txt", 10*time.Second)
	saved, err := os.ReadFile(filepath.Join(ws, ".steer", "config.json"))
	if err != nil || !strings.Contains(string(saved), `"Read(/`+root+`/x/**)"`) {
		t.Fatalf("the project config holds %q (%v), want the rule for x", saved, err)
	}

	p.typeText(`call read {"path": "../x/b.txt"}`, "Enter")
	p.waitFor("the second read", "content of x/b.txt", 10*time.Second)
	p.typeText(`call read {"path": "../y/c.txt"}`, "Enter")
	p.waitFor("the dialog for y", "Allow read?", 10*time.Second)
	time.Sleep(quiet)
	p.typeText("n")
	p.waitFor("the denial", "denied by the user", 10*time.Second)
	quitSteer(t, p)

	for _, tc := range []struct{ file, want string }{
		{"../x/b.txt", "content of x/b.txt"},
		{"../y/c.txt", "needs approval"},
	} {
		cmd := exec.Command(steerBin, "--state-dir", state, "--pace", "0", "--approve", "ask", "run",
			`call read {"path": "`+tc.file+`"}`)
		cmd.Dir = ws
		cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "ANTHROPIC_API_KEY=", "OPENAI_API_KEY=", "OPENROUTER_API_KEY=")
		out, _ := cmd.CombinedOutput()
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("the next process reading %s: %s\nwant %q", tc.file, out, tc.want)
		}
	}
}
