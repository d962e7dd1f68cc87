package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestWriteCommitIsGitsCommit: the commit writeCommit stores is read back
// by git as written, and is the very one git commit-tree makes of the same
// tree, parent, time and message.
func TestWriteCommitIsGitsCommit(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir(), t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := s.shadow("s1")
	tree, err := g.line(ctx, nil, "write-tree")
	if err != nil {
		t.Fatal(err)
	}
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var last string // each case's parent is the commit before it
	for _, tt := range []struct {
		name, msg string
		parented  bool
	}{
		{"first", `{"session":"s1","turn":"1"}`, false},
		{"with a parent", "two\nlines\n", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			parent := ""
			if tt.parented {
				parent = last
			}
			id, err := g.writeCommit(tree, parent, when, []byte(tt.msg))
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("tree %s\n", tree)
			if parent != "" {
				want += fmt.Sprintf("parent %s\n", parent)
			}
			want += fmt.Sprintf("author steer <steer@localhost> %d +0000\ncommitter steer <steer@localhost> %d +0000\n\n%s", when.Unix(), when.Unix(), tt.msg)
			if got, err := g.run(ctx, nil, "cat-file", "commit", id); err != nil || string(got) != want {
				t.Fatalf("git reads %s as %q (%v), want %q", id, got, err, want)
			}
			args := []string{"commit-tree", tree}
			if parent != "" {
				args = append(args, "-p", parent)
			}
			cmd := exec.Command(g.git, args...)
			date := fmt.Sprintf("@%d +0000", when.Unix())
			cmd.Dir, cmd.Env = g.workTree, append(g.env(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
			cmd.Stdin = strings.NewReader(tt.msg)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			if gitID := strings.TrimSpace(string(out)); gitID != id {
				t.Fatalf("git commit-tree makes %s, writeCommit %s", gitID, id)
			}
			last = id
		})
	}
}

func TestWriteCommitRefusesWhatIsNoID(t *testing.T) {
	g := shadow{dir: t.TempDir()}
	tree := strings.Repeat("a", 40)
	for _, tt := range []struct{ name, tree, parent string }{
		{"tree not hex", strings.Repeat("z", 40), ""},
		{"tree of no hash's length", "abc", ""},
		{"parent of another length", tree, strings.Repeat("b", 64)},
		{"parent a revision, not an id", tree, "HEAD"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := g.writeCommit(tt.tree, tt.parent, time.Unix(0, 0), nil); !errors.Is(err, errBadID) {
				t.Fatalf("err %v, want errBadID", err)
			}
		})
	}
}
