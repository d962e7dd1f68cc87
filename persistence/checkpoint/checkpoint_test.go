package checkpoint_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/steer-tui/steer/persistence/checkpoint"
)

func write(t testing.TB, dir, name, body string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// userGit runs the user's own git in dir, as a person would.
func userGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=u", "GIT_AUTHOR_EMAIL=u@x", "GIT_COMMITTER_NAME=u", "GIT_COMMITTER_EMAIL=u@x")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// gitState is what the user sees of their repository.
func gitState(t *testing.T, dir string) string {
	return userGit(t, dir, "status", "--porcelain=v1", "--ignored") + "|" + userGit(t, dir, "stash", "list") +
		"|" + userGit(t, dir, "rev-parse", "HEAD") + "|" + userGit(t, dir, "branch", "-a") +
		"|" + userGit(t, dir, "config", "--local", "--list")
}

func shell(t *testing.T, dir, script string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

func TestRewindUndoesWriteAndBash(t *testing.T) {
	for _, repo := range []bool{true, false} {
		name := map[bool]string{true: "git workspace", false: "plain directory"}[repo]
		t.Run(name, func(t *testing.T) {
			ws, state := t.TempDir(), t.TempDir()
			write(t, ws, "a.txt", "a\n")
			write(t, ws, "b.txt", "b\n")
			write(t, ws, ".gitignore", "build/\n")
			write(t, ws, "build/out.bin", "generated\n")
			if repo {
				userGit(t, ws, "init", "-q")
				userGit(t, ws, "add", "-A")
				userGit(t, ws, "commit", "-qm", "one")
				write(t, ws, "b.txt", "b stashed\n")
				userGit(t, ws, "stash", "-q")
				write(t, ws, "b.txt", "b uncommitted\n")
				write(t, ws, "local.txt", "excluded\n")
				shell(t, ws, "echo local.txt >> .git/info/exclude")
			}
			var before string
			if repo {
				before = gitState(t, ws)
			}
			bBefore := read(t, ws, "b.txt")
			ctx := context.Background()
			s, err := checkpoint.Open(state, ws, checkpoint.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cp, err := s.Take(ctx, "s1", "1", checkpoint.KindTurn)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(cp.LeftOut, checkpoint.LeftOut{Path: "build/", Why: checkpoint.LeftIgnored}) {
				t.Fatalf("left out %v, want build/ named as ignored", cp.LeftOut)
			}
			// call write, then call bash {"command":"rm a.txt; echo x >> b.txt"}
			write(t, ws, "c.txt", "new\n")
			shell(t, ws, "rm a.txt; echo x >> b.txt; echo more >> build/out.bin")
			if err := s.Settle(ctx, "s1"); err != nil {
				t.Fatal(err)
			}
			plan, err := s.Preview(ctx, cp)
			if err != nil {
				t.Fatal(err)
			}
			want := []checkpoint.Change{
				{Path: "a.txt", Action: checkpoint.ActionCreate, Added: 1},
				{Path: "b.txt", Action: checkpoint.ActionRestore, Removed: 1},
				{Path: "c.txt", Action: checkpoint.ActionDelete, Removed: 1},
			}
			if !slices.Equal(plan.Changes, want) {
				t.Fatalf("plan %+v, want %+v", plan.Changes, want)
			}
			if _, err := s.Restore(ctx, plan, checkpoint.RestoreOptions{}); err != nil {
				t.Fatal(err)
			}
			if got := read(t, ws, "a.txt"); got != "a\n" {
				t.Errorf("a.txt = %q", got)
			}
			if got := read(t, ws, "b.txt"); got != bBefore {
				t.Errorf("b.txt = %q, want %q", got, bBefore)
			}
			if _, err := os.Stat(filepath.Join(ws, "c.txt")); !os.IsNotExist(err) {
				t.Errorf("c.txt is still there: %v", err)
			}
			if got := read(t, ws, "build/out.bin"); got != "generated\nmore\n" {
				t.Errorf("the ignored build/out.bin was touched: %q", got)
			}
			if repo {
				if after := gitState(t, ws); after != before {
					t.Errorf("the user's repository changed:\nbefore %s\nafter  %s", before, after)
				}
			}
		})
	}
}

func TestRedoAndExternalChanges(t *testing.T) {
	ws, state := t.TempDir(), t.TempDir()
	write(t, ws, "a.txt", "one\n")
	write(t, ws, "h.txt", "hand\n")
	ctx := context.Background()
	s, err := checkpoint.Open(state, ws, checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cp, err := s.Take(ctx, "s1", "1", checkpoint.KindTurn)
	if err != nil {
		t.Fatal(err)
	}
	write(t, ws, "a.txt", "two\n")
	if err := s.Settle(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	write(t, ws, "h.txt", "edited by hand\n")
	plan, err := s.Preview(ctx, cp)
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.External(); !slices.Equal(got, []string{"h.txt"}) {
		t.Fatalf("external %v, want [h.txt] (changes %+v)", got, plan.Changes)
	}
	before, err := s.List(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Restore(ctx, plan, checkpoint.RestoreOptions{Skip: plan.External()}); err != nil {
		t.Fatal(err)
	}
	if read(t, ws, "a.txt") != "one\n" || read(t, ws, "h.txt") != "edited by hand\n" {
		t.Fatalf("after restore a=%q h=%q", read(t, ws, "a.txt"), read(t, ws, "h.txt"))
	}
	list, err := s.List(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(before)+1 || list[0].Kind != checkpoint.KindRestore {
		t.Fatalf("list %+v: want a restore checkpoint on top", list)
	}
	// /redo: rewinding to the state the restore replaced. The restore's
	// own checkpoint holds the result; the one before it is the pre-restore
	// present, recorded by the preview's snapshot as the restore's parent.
	undo, err := s.Undo(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	redo, err := s.Preview(ctx, undo)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Restore(ctx, redo, checkpoint.RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	if read(t, ws, "a.txt") != "two\n" || read(t, ws, "h.txt") != "edited by hand\n" {
		t.Fatalf("after redo a=%q h=%q", read(t, ws, "a.txt"), read(t, ws, "h.txt"))
	}
}

// TestOverSizeCapIsLeftOutAndAlone: a file over the cap, whether it was
// so from the start or grew past the cap after a checkpoint held it, is
// named as left out, is not in the snapshot, and a restore leaves it alone.
func TestOverSizeCapIsLeftOutAndAlone(t *testing.T) {
	big := checkpoint.LeftOut{Path: "big.bin", Why: checkpoint.LeftOverSize}
	tests := []struct {
		name    string
		before  string               // big.bin at the checkpoint
		leftOut []checkpoint.LeftOut // what the checkpoint leaves out
		dropped []checkpoint.Change  // from the checkpoint to a snapshot after big.bin grew
	}{
		{"over the cap from the start", strings.Repeat("x", 100), []checkpoint.LeftOut{big}, nil},
		{"grown over the cap since", "small\n", nil,
			[]checkpoint.Change{{Path: "big.bin", Action: checkpoint.ActionDelete, Removed: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, state := t.TempDir(), t.TempDir()
			write(t, ws, "big.bin", tt.before)
			write(t, ws, "a.txt", "a\n")
			ctx := context.Background()
			s, err := checkpoint.Open(state, ws, checkpoint.Options{MaxFileSize: 50})
			if err != nil {
				t.Fatal(err)
			}
			cp, err := s.Take(ctx, "s1", "1", checkpoint.KindTurn)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(cp.LeftOut, tt.leftOut) {
				t.Fatalf("left out %v, want %v", cp.LeftOut, tt.leftOut)
			}
			write(t, ws, "big.bin", strings.Repeat("y", 100))
			later, err := s.Take(ctx, "s1", "2", checkpoint.KindTurn)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(later.LeftOut, []checkpoint.LeftOut{big}) {
				t.Fatalf("after big.bin grew, left out %v, want %v", later.LeftOut, []checkpoint.LeftOut{big})
			}
			dropped, err := s.Diff(ctx, "s1", cp.ID, later.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(dropped, tt.dropped) {
				t.Fatalf("changes to the snapshot after big.bin grew %+v, want %+v", dropped, tt.dropped)
			}
			write(t, ws, "a.txt", "b\n")
			plan, err := s.Preview(ctx, cp)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Restore(ctx, plan, checkpoint.RestoreOptions{}); err != nil {
				t.Fatal(err)
			}
			if read(t, ws, "big.bin") != strings.Repeat("y", 100) || read(t, ws, "a.txt") != "a\n" {
				t.Fatal("the restore touched the file over the cap, or missed a.txt")
			}
		})
	}
}
