package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadableDirs: the read tool reads a user skill's files without an
// approval, through a skill folder that is a link too; everything else
// outside stays outside — the directory's own files, a folder without
// SKILL.md, a link out of a skill, "..", and the other tools.
func TestReadableDirs(t *testing.T) {
	ws, home, dotfiles := t.TempDir(), t.TempDir(), t.TempDir()
	skills := filepath.Join(home, ".claude", "skills")
	skillMD := writeFile(t, skills, "pdf/SKILL.md", "---\nname: pdf\n---\nbody")
	ref := writeFile(t, skills, "pdf/references/forms.md", "forms")
	writeFile(t, dotfiles, "linked/SKILL.md", "linked body")
	if err := os.Symlink(filepath.Join(dotfiles, "linked"), filepath.Join(skills, "linked")); err != nil {
		t.Fatal(err)
	}
	secret := writeFile(t, home, "secret.txt", "secret")
	if err := os.Symlink(secret, filepath.Join(skills, "pdf", "leak.txt")); err != nil {
		t.Fatal(err)
	}
	loose := writeFile(t, skills, "README.md", "loose")
	notSkill := writeFile(t, skills, "notes/todo.md", "todo")

	read := Read(ws, WithReadableDirs(skills))
	cases := []struct {
		name, path string
		readable   bool
		want       string
	}{
		{"SKILL.md", skillMD, true, "body"},
		{"a reference", ref, true, "forms"},
		{"a linked skill folder", filepath.Join(skills, "linked", "SKILL.md"), true, "linked body"},
		{"a link out of a skill", filepath.Join(skills, "pdf", "leak.txt"), false, ""},
		{"dot-dot out", filepath.Join(skills, "pdf", "..", "..", "..", "secret.txt"), false, ""},
		{"the directory's own file", loose, false, ""},
		{"a folder without SKILL.md", notSkill, false, ""},
		{"elsewhere", secret, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := describe(read, map[string]any{"path": c.path})
			r := execute(t, read, map[string]any{"path": c.path})
			if c.readable {
				if a.Outside || r.IsError || !strings.Contains(text(r), c.want) {
					t.Fatalf("outside %v, result %q", a.Outside, text(r))
				}
				return
			}
			if !a.Outside || !r.IsError || !strings.Contains(text(r), "outside the workspace") {
				t.Fatalf("outside %v, result %q", a.Outside, text(r))
			}
		})
	}
	if a := describe(Ls(ws), map[string]any{"path": filepath.Dir(skillMD)}); !a.Outside {
		t.Fatal("ls of a skill folder counts as inside: only read may reach it")
	}
	if r := execute(t, Read(ws), map[string]any{"path": skillMD}); !r.IsError {
		t.Fatal("without WithReadableDirs the skill was read")
	}
}
