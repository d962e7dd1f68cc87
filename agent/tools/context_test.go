package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProjectContext(t *testing.T) {
	outside := writeFile(t, t.TempDir(), "private.md", "PRIVATE KEY MATERIAL\n")
	big := strings.Repeat("rule line\n", maxProjectContextBytes/10+100)
	tests := []struct {
		name    string
		setup   func(t *testing.T, ws string)
		want    []string
		absent  []string
		wantErr string
	}{
		{name: "no AGENTS.md", setup: func(*testing.T, string) {},
			absent: []string{"Project instructions"}},
		{name: "AGENTS.md is injected", setup: func(t *testing.T, ws string) {
			writeFile(t, ws, "AGENTS.md", "# Rules\r\n\r\nRun `make test` before committing.\r\n")
		}, want: []string{"## Project instructions (AGENTS.md)", "# Rules\n\nRun `make test` before committing."}},
		{name: "a link inside is followed", setup: func(t *testing.T, ws string) {
			writeFile(t, ws, "docs/agents.md", "linked rules\n")
			symlink(t, "docs/agents.md", filepath.Join(ws, "AGENTS.md"))
		}, want: []string{"linked rules"}},
		{name: "a link outside is refused", setup: func(t *testing.T, ws string) {
			symlink(t, outside, filepath.Join(ws, "AGENTS.md"))
		}, absent: []string{"PRIVATE", "Project instructions"}, wantErr: "AGENTS.md leads outside the workspace"},
		{name: "a directory", setup: func(t *testing.T, ws string) {
			os.Mkdir(filepath.Join(ws, "AGENTS.md"), 0o755)
		}, wantErr: "AGENTS.md is not a regular file; it is not read"},
		{name: "binary", setup: func(t *testing.T, ws string) {
			writeFile(t, ws, "AGENTS.md", "\x00\x01\x02")
		}, wantErr: "AGENTS.md is not text"},
		{name: "a big file is cut", setup: func(t *testing.T, ws string) {
			writeFile(t, ws, "AGENTS.md", big)
		}, want: []string{"rule line\nrule line\n\n[AGENTS.md is 33.0 KB; only its first 32.0 KB are shown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := t.TempDir()
			tt.setup(t, ws)
			got, err := ProjectContext(ws)
			if (err == nil) != (tt.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("error = %v, want %q", err, tt.wantErr)
			}
			if !strings.HasPrefix(got, "# Project context\n\nWorkspace root: "+ws+" ") {
				t.Errorf("context does not start with the workspace root: %.120q", got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("context lacks %q:\n%.300s", w, got)
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(got, a) {
					t.Errorf("context holds %q", a)
				}
			}
			if len(got) > maxProjectContextBytes+1024 {
				t.Errorf("context is %d bytes", len(got))
			}
		})
	}
}

// symlink makes link point to target.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
