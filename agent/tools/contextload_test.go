package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestContextFilesFollowTheDisk: each Load sees an edit, a new file and a
// removed one; a file whose size and modification time are unchanged is
// not read again.
func TestContextFilesFollowTheDisk(t *testing.T) {
	repo := newWorkspace(t.TempDir()).root
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(repo, "ws")
	agents := writeFile(t, ws, "AGENTS.md", "first\n")
	c := NewContextFiles(ws, ContextSources{})
	texts := func() string {
		var out []string
		for _, f := range c.Load() {
			out = append(out, f.Text)
		}
		return strings.Join(out, "|")
	}
	steps := []struct {
		name   string
		change func()
		want   string
	}{
		{"as first read", func() {}, "first"},
		{"an edit", func() { writeFile(t, ws, "AGENTS.md", "second edit\n") }, "second edit"},
		{"a new file above", func() { writeFile(t, repo, "CLAUDE.md", "root rules\n") }, "root rules|second edit"},
		{"same size and time: kept", func() {
			info, err := os.Stat(agents)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, ws, "AGENTS.md", "SECOND EDIT\n")
			if err := os.Chtimes(agents, time.Time{}, info.ModTime()); err != nil {
				t.Fatal(err)
			}
		}, "root rules|second edit"},
		{"a removed file", func() {
			if err := os.Remove(agents); err != nil {
				t.Fatal(err)
			}
		}, "root rules"},
	}
	for _, s := range steps {
		s.change()
		if got := texts(); got != s.want {
			t.Errorf("%s: loaded %q, want %q", s.name, got, s.want)
		}
	}
}

func TestContextPrompt(t *testing.T) {
	files := []ContextFile{
		{Path: "/cfg/steer/AGENTS.md", Level: ContextGlobal, Text: "global rules"},
		{Path: "/repo/AGENTS.md", Level: ContextAncestor, Text: "repo rules"},
		{Path: "/repo/ws/CLAUDE.md", Level: ContextWorkspace, Skipped: "not text (binary)"},
		{Path: "/repo/ws/AGENTS.md", Level: ContextWorkspace, Text: "workspace rules"},
	}
	got := ContextPrompt(files)
	want := []string{"# Context files\n", "\n## /cfg/steer/AGENTS.md (global)\n\nglobal rules\n",
		"\n## /repo/AGENTS.md (ancestor)\n\nrepo rules\n", "\n## /repo/ws/AGENTS.md (workspace)\n\nworkspace rules\n"}
	at := 0
	for _, w := range want {
		i := strings.Index(got[at:], w)
		if i < 0 {
			t.Fatalf("the prompt lacks %q after byte %d:\n%s", w, at, got)
		}
		at += i + len(w)
	}
	if strings.Contains(got, "CLAUDE.md (") {
		t.Errorf("the prompt carries a skipped file:\n%s", got)
	}
	if ContextPrompt(files[2:3]) != "" {
		t.Error("a prompt of nothing loaded is not empty")
	}
}
