package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// killFiles is how many files the killed restore rewrites.
const killFiles = 1000

// TestKillDuringRewind: `steer rewind` of 1,000 files is killed with
// SIGKILL once its restore journal is written; the next start (`steer
// rewind --resume finish`, or rollback) repairs the workspace, and its
// tree then matches one of the two checkpoints byte for byte.
func TestKillDuringRewind(t *testing.T) {
	slow(t)
	for _, how := range []string{"finish", "rollback"} {
		t.Run(how, func(t *testing.T) {
			s := newSandbox(t)
			for i := 0; i < killFiles; i++ {
				writeTree(t, s.workspace, fmt.Sprintf("d%d/f%04d.txt", i%10, i), fmt.Sprintf("before %d\n", i))
			}
			before := wsTree(t, s.workspace)
			id := turn(t, s, "", "bash", map[string]any{"command": `for f in d*/f*.txt; do echo later | tee "$f" >/dev/null; done`})
			later := wsTree(t, s.workspace)
			if maps.Equal(before, later) {
				t.Fatal("the command changed nothing")
			}

			cmd := s.command("rewind", "--session", id, "--to", "1", "--code")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			ws, err := filepath.EvalSymlinks(s.workspace)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256([]byte(ws))
			journal := filepath.Join(s.stateDir, "checkpoints", hex.EncodeToString(sum[:8])+".git", "restore.journal")
			for deadline := time.Now().Add(30 * time.Second); !fileExists(journal) && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond) // polling a file, not ordering goroutines
			}
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()

			if fileExists(journal) {
				code, out, errOut := s.run(nil, "rewind", "--session", id, "--resume", how)
				if code != headless.ExitOK {
					t.Fatalf("rewind --resume %s: exit %d: %s%s", how, code, out, errOut)
				}
			} else {
				t.Log("the restore finished before the kill: nothing to resume")
			}
			got := wsTree(t, s.workspace)
			if !maps.Equal(got, before) && !maps.Equal(got, later) {
				t.Fatal("the tree matches neither checkpoint")
			}
			if fileExists(journal) {
				t.Fatal("the journal is still there")
			}
		})
	}
}

// writeTree writes rel under dir, making its directories.
func writeTree(t *testing.T, dir, rel, body string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// wsTree is every file of the workspace's d* directories and its content.
func wsTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	paths, err := filepath.Glob(filepath.Join(dir, "d*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = string(b)
	}
	return out
}
