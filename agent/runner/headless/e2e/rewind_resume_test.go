package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// TestInterruptedRewindIsNotIgnored: a restore journal left behind (steer
// died mid-restore) makes `steer run` warn naming the fix and refuse
// mutating tools, until `steer rewind --resume finish` completes it — the
// tree then matches the checkpoint.
func TestInterruptedRewindIsNotIgnored(t *testing.T) {
	slow(t)
	s := newSandbox(t)
	writeWS(t, s, "a.txt", "a\n")
	writeWS(t, s, "b.txt", "b\n")
	id := writeThenBash(t, s)

	// The journal a restore to before turn 1 writes first, as if steer died
	// right after it: from the state steer left to turn 1's checkpoint.
	ws, err := filepath.EvalSymlinks(s.workspace)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(ws))
	shadow := filepath.Join(s.stateDir, "checkpoints", hex.EncodeToString(sum[:8])+".git")
	refs := shadowGit(t, shadow, "for-each-ref", "--sort=refname", "--format=%(objectname)", "refs/steer/"+id+"/")
	first, _, _ := strings.Cut(refs, "\n")
	last := strings.TrimSpace(shadowGit(t, shadow, "rev-parse", "refs/steer-last/"+id))
	j, _ := json.Marshal(map[string]any{"session": id, "from": last, "to": first, "paths": []string{"a.txt", "b.txt"}})
	if err := os.WriteFile(filepath.Join(shadow, "restore.journal"), j, 0o600); err != nil {
		t.Fatal(err)
	}

	r := callTool(t, s, []string{"--session", id}, "write", map[string]any{"path": "c.txt", "content": "c\n"})
	fix := "steer rewind --session " + id + " --resume finish"
	if !strings.Contains(r.stderr, fix) {
		t.Errorf("steer run's stderr does not name %q:\n%s", fix, r.stderr)
	}
	if !r.isError || !strings.Contains(r.result, "cut short") || fileExists(filepath.Join(s.workspace, "c.txt")) {
		t.Errorf("the write ran beside an interrupted restore: %v %q", r.isError, r.result)
	}

	code, stdout, stderr := s.run(nil, "rewind", "--session", id, "--resume", "finish")
	if code != headless.ExitOK || !strings.Contains(stdout, "finished") {
		t.Fatalf("rewind --resume finish: exit %d: %s%s", code, stdout, stderr)
	}
	if readWS(t, s, "a.txt") != "a\n" || readWS(t, s, "b.txt") != "b\n" {
		t.Error("the finished restore does not match the checkpoint")
	}
	if fileExists(filepath.Join(shadow, "restore.journal")) {
		t.Error("the journal stays after the restore is finished")
	}
	code, stdout, _ = s.run(nil, "rewind", "--session", id, "--resume", "rollback")
	if code != headless.ExitOK || !strings.Contains(stdout, "nothing to do") {
		t.Errorf("a second resume: exit %d: %s", code, stdout)
	}
}

// shadowGit reads the shadow repository, as a test may.
func shadowGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"--git-dir", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}
