package tools

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// recordingDiagnoser answers for *.go files and records what it was told.
type recordingDiagnoser struct {
	mu     sync.Mutex
	writes []string // "path=content"
	asked  []string
	warmed []string
}

func (d *recordingDiagnoser) AfterWrite(_ context.Context, path, content string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.writes = append(d.writes, path+"="+content)
	if filepath.Ext(path) != ".go" {
		return ""
	}
	return "gopls: no diagnostics (after 0.1 s)"
}

func (d *recordingDiagnoser) Warm(path string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.warmed = append(d.warmed, path)
}

func (d *recordingDiagnoser) Diagnostics(_ context.Context, path string) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.asked = append(d.asked, path)
	if strings.HasSuffix(path, ".txt") {
		return "", errors.New("no language server handles .txt files")
	}
	return "diagnostics of " + path, nil
}

func TestWriteAndEditReportDiagnostics(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "a.go", "package a\r\n\r\nvar x = 1\r\n")
	for _, tc := range []struct {
		name      string
		tool      string
		args      map[string]any
		told      string // what the Diagnoser was told
		paragraph bool
	}{
		{name: "write tells the new content", tool: "write", args: map[string]any{"path": "b.go", "content": "package b\n"},
			told: filepath.Join(ws, "b.go") + "=package b\n", paragraph: true},
		{name: "edit tells the file as written, line endings kept", tool: "edit",
			args: map[string]any{"path": "a.go", "edits": []any{map[string]any{"oldText": "x = 1", "newText": "x = 2"}}},
			told: filepath.Join(ws, "a.go") + "=package a\r\n\r\nvar x = 2\r\n", paragraph: true},
		{name: "a file no server handles adds nothing", tool: "write", args: map[string]any{"path": "n.txt", "content": "hi"},
			told: filepath.Join(ws, "n.txt") + "=hi"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &recordingDiagnoser{}
			r := execute(t, toolNamed(t, New(ws, WithDiagnostics(d)), tc.tool), tc.args)
			if r.IsError {
				t.Fatalf("%s failed: %s", tc.tool, text(r))
			}
			if len(d.writes) != 1 || d.writes[0] != tc.told {
				t.Errorf("told %q, want %q", d.writes, tc.told)
			}
			if got := strings.HasSuffix(text(r), "\n\ngopls: no diagnostics (after 0.1 s)"); got != tc.paragraph {
				t.Errorf("result %q: diagnostics paragraph %v, want %v", text(r), got, tc.paragraph)
			}
		})
	}
}

func TestReadWarmsTheServerUp(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "a.go", "package a\n")
	d := &recordingDiagnoser{}
	if r := execute(t, toolNamed(t, New(ws, WithDiagnostics(d)), "read"), map[string]any{"path": "a.go"}); r.IsError {
		t.Fatal(text(r))
	}
	if want := filepath.Join(ws, "a.go"); len(d.warmed) != 1 || d.warmed[0] != want {
		t.Errorf("warmed %q, want %q", d.warmed, want)
	}
}

func TestDiagnosticsTool(t *testing.T) {
	ws := t.TempDir()
	if hasTool(New(ws), "diagnostics") {
		t.Error("the diagnostics tool is there without WithDiagnostics")
	}
	d := &recordingDiagnoser{}
	tool := toolNamed(t, New(ws, WithDiagnostics(d)), "diagnostics")
	for _, tc := range []struct {
		name    string
		args    map[string]any
		asked   string
		want    string
		isError bool
	}{
		{name: "a file, resolved in the workspace", args: map[string]any{"path": "a.go"}, asked: filepath.Join(ws, "a.go"),
			want: "diagnostics of " + filepath.Join(ws, "a.go")},
		{name: "every file", args: map[string]any{}, asked: "", want: "diagnostics of "},
		{name: "the Diagnoser's error is the model's to read", args: map[string]any{"path": "n.txt"}, asked: filepath.Join(ws, "n.txt"),
			want: "diagnostics: no language server handles .txt files", isError: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d.asked = nil
			r := execute(t, tool, tc.args)
			if text(r) != tc.want || r.IsError != tc.isError || len(d.asked) != 1 || d.asked[0] != tc.asked {
				t.Errorf("result %q (error %v), asked %q; want %q (error %v), asked %q", text(r), r.IsError, d.asked, tc.want, tc.isError, tc.asked)
			}
			if a := tool.(Describer).Describe(tc.args); a.Mutating || a.Outside {
				t.Errorf("Describe %+v: want a call that changes nothing inside the workspace", a)
			}
		})
	}
}

// toolNamed is the tool called name among ts.
func toolNamed(t *testing.T, ts []agent.Tool, name string) agent.Tool {
	t.Helper()
	for _, tool := range ts {
		if tool.Spec().Name == name {
			return tool
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

func hasTool(ts []agent.Tool, name string) bool {
	for _, tool := range ts {
		if tool.Spec().Name == name {
			return true
		}
	}
	return false
}
