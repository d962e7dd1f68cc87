package checkpoint_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/steer-tui/steer/persistence/checkpoint"
)

// The child of TestKillDuringRestore: it restores the checkpoint named in
// the environment and is killed in the middle.
func TestMain(m *testing.M) {
	if os.Getenv("CHECKPOINT_CRASH_CHILD") != "" {
		os.Exit(restoreChild())
	}
	os.Exit(m.Run())
}

func restoreChild() int {
	ctx := context.Background()
	s, err := checkpoint.Open(os.Getenv("CHECKPOINT_STATE"), os.Getenv("CHECKPOINT_WS"), checkpoint.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	list, err := s.List(ctx, "s1")
	if err != nil || len(list) == 0 {
		fmt.Fprintln(os.Stderr, "no checkpoint", err)
		return 1
	}
	plan, err := s.Preview(ctx, list[0])
	if err == nil {
		_, err = s.Restore(ctx, plan, checkpoint.RestoreOptions{})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// tree is every file of dir and its content.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestKillDuringRestore(t *testing.T) {
	for _, finish := range []bool{true, false} {
		t.Run(fmt.Sprintf("finish=%v", finish), func(t *testing.T) {
			ws, state := t.TempDir(), t.TempDir()
			for i := 0; i < 1000; i++ {
				write(t, ws, fmt.Sprintf("d%d/f%04d.txt", i%10, i), fmt.Sprintf("checkpoint %d\n", i))
			}
			ctx := context.Background()
			s, err := checkpoint.Open(state, ws, checkpoint.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Take(ctx, "s1", "1", checkpoint.KindTurn); err != nil {
				t.Fatal(err)
			}
			atCheckpoint := tree(t, ws)
			for i := 0; i < 1000; i++ {
				write(t, ws, fmt.Sprintf("d%d/f%04d.txt", i%10, i), fmt.Sprintf("later %d\n", i))
			}
			write(t, ws, "new.txt", "only later\n")
			later := tree(t, ws)

			child := exec.Command(os.Args[0], "-test.run=^$")
			child.Env = append(os.Environ(), "CHECKPOINT_CRASH_CHILD=1", "CHECKPOINT_STATE="+state, "CHECKPOINT_WS="+ws)
			child.Stderr = os.Stderr
			if err := child.Start(); err != nil {
				t.Fatal(err)
			}
			// Kill it once its journal is written: from then on, whatever
			// moment the kill hits, the next start must repair the tree.
			journal := filepath.Join(state, "checkpoints")
			deadline := time.Now().Add(30 * time.Second)
			for !journalWritten(t, journal) && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond) // polling a file, not ordering goroutines
			}
			_ = child.Process.Signal(syscall.SIGKILL)
			_ = child.Wait()

			s, err = checkpoint.Open(state, ws, checkpoint.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if in, ok, err := s.Interrupted(); err != nil {
				t.Fatal(err)
			} else if ok {
				if in.Session != "s1" {
					t.Fatalf("interrupted %+v", in)
				}
				if err := s.Resume(ctx, finish); err != nil {
					t.Fatal(err)
				}
			}
			got := tree(t, ws)
			if !maps.Equal(got, atCheckpoint) && !maps.Equal(got, later) {
				t.Fatal("the tree matches neither checkpoint")
			}
			if _, ok, _ := s.Interrupted(); ok {
				t.Fatal("the journal is still there")
			}
		})
	}
}

// journalWritten reports whether a restore journal exists under dir.
func journalWritten(t *testing.T, dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "*.git", "restore.journal"))
	return len(m) > 0
}
