package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// Context files (issue 30) through the binary: AGENTS.md and CLAUDE.md from
// the global config directory, the directories above the workspace up to
// the repository root, and the workspace, in the system prompt the
// provider receives.

// columns splits a row of a table tabwriter printed (two spaces or more
// between cells, one inside "1.5 KB").
var columns = regexp.MustCompile(`\s{2,}`)

// contextFile is one file of the fixture: where it is, its text, and the
// heading the system prompt gives it ("" for one that must not load).
type contextFile struct {
	path, text, level string
}

// contextTree is the fixture: a global AGENTS.md, a repository root
// (git init) with an AGENTS.md and a CLAUDE.md beside it that must not
// load, a directory below it with a CLAUDE.md alone, which loads, and the
// workspace under that with its AGENTS.md. The global file is over 1 KB,
// so that the listing shows a size in KB. Paths are the real ones, links
// resolved, as steer reports them.
type contextTree struct {
	global, root, rootClaude, mid, workspace contextFile
}

func newContextTree(t *testing.T, s *sandbox) contextTree {
	t.Helper()
	base, err := filepath.EvalSymlinks(filepath.Dir(s.workspace))
	if err != nil {
		t.Fatal(err)
	}
	repo := mkdir(t, base, "repo")
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	ws := mkdir(t, repo, "mid", "workspace")
	s.workspace = ws
	tree := contextTree{
		global: contextFile{filepath.Join(base, "config", "steer", "AGENTS.md"),
			"Global rule marker-g1: answer briefly.\n" + strings.Repeat("Keep the global rules short. ", 50), "global"},
		root:       contextFile{filepath.Join(repo, "AGENTS.md"), "Repository rule marker-r2: run go test.", "ancestor"},
		rootClaude: contextFile{filepath.Join(repo, "CLAUDE.md"), "Claude rule marker-c3: must not load.", ""},
		mid:        contextFile{filepath.Join(repo, "mid", "CLAUDE.md"), "Middle rule marker-m4: from a CLAUDE.md alone.", "ancestor"},
		workspace:  contextFile{filepath.Join(ws, "AGENTS.md"), "Workspace rule marker-w5: version one.", "workspace"},
	}
	for _, f := range tree.all() {
		mkdir(t, filepath.Dir(f.path))
		if err := os.WriteFile(f.path, []byte(f.text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return tree
}

// all is every file, in the order the listing has them.
func (c contextTree) all() []contextFile {
	return []contextFile{c.global, c.root, c.rootClaude, c.mid, c.workspace}
}

// loaded is every file the prompt carries, in its order.
func (c contextTree) loaded() []contextFile {
	return []contextFile{c.global, c.root, c.mid, c.workspace}
}

// editingServer is an OpenAI-compatible server that records each request's
// body. Its first answer calls read; before giving it, it calls edit,
// which changes a file on disk between the run's two requests. Later
// answers are text.
type editingServer struct {
	edit   func()
	mu     sync.Mutex
	bodies []string
}

func (e *editingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	e.mu.Lock()
	e.bodies = append(e.bodies, string(body))
	n := len(e.bodies)
	e.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	if n == 1 {
		e.edit()
		args, _ := json.Marshal(map[string]string{"path": "notes.txt"})
		call, _ := json.Marshal(map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
			"index": 0, "id": "call_read", "type": "function",
			"function": map[string]any{"name": "read", "arguments": string(args)}}}})
		fmt.Fprint(w, openAIChunk(string(call), "")+openAIChunk(`{}`, "tool_calls")+"data: [DONE]\n\n")
		return
	}
	fmt.Fprint(w, openAIChunk(`{"role":"assistant","content":"done"}`, "")+openAIChunk(`{}`, "stop")+"data: [DONE]\n\n")
}

func (e *editingServer) requests() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.bodies...)
}

// TestContextFilesReachTheRequest: the system prompt the loopback server
// receives carries the global, the ancestors' and the workspace's context
// files in that order, each under a heading with its path and level; the
// CLAUDE.md beside an AGENTS.md is left out. The workspace's AGENTS.md,
// edited between the run's two requests, reaches the second request as it
// now is.
func TestContextFilesReachTheRequest(t *testing.T) {
	s := newSandbox(t)
	tree := newContextTree(t, s)
	if err := os.WriteFile(filepath.Join(s.workspace, "notes.txt"), []byte("some notes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	edited := "Workspace rule marker-w6: version two, edited during the run."
	srv := &editingServer{edit: func() {
		if err := os.WriteFile(tree.workspace.path, []byte(edited), 0o600); err != nil {
			t.Error(err)
		}
	}}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	cfg := localConfig(t, ts.URL+"/v1", []string{"m"})

	code, stdout, stderr := s.run(nil, "--config", cfg, "--model", "local/m", "--pace", "0", "run", "read notes.txt")
	if code != headless.ExitOK || !strings.Contains(stdout, "done") {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (the read, then the answer)", len(reqs))
	}
	first, _ := messages(t, reqs[0])
	checkContextOrder(t, first, tree.loaded())
	if strings.Contains(first, tree.rootClaude.text) {
		t.Errorf("the CLAUDE.md beside an AGENTS.md reached the prompt:\n%s", first)
	}

	second, _ := messages(t, reqs[1])
	now := tree
	now.workspace.text = edited
	checkContextOrder(t, second, now.loaded())
	if strings.Contains(second, tree.workspace.text) {
		t.Errorf("the second request still carries the workspace file as it was:\n%s", second)
	}
}

// checkContextOrder fails unless system has each of files, in order, as a
// heading with its path and level followed by its text.
func checkContextOrder(t *testing.T, system string, files []contextFile) {
	t.Helper()
	at := 0
	for _, f := range files {
		section := fmt.Sprintf("## %s (%s)\n\n%s\n", f.path, f.level, strings.TrimSpace(f.text))
		i := strings.Index(system[at:], section)
		if i < 0 {
			t.Errorf("the system prompt lacks %s's section after byte %d (or has it out of order):\n%s", f.path, at, system)
			return
		}
		at += i + len(section)
	}
}

// TestInspectMemoryListsTheContextFiles: `steer inspect memory` in the
// workspace lists every context file outermost first with its level and
// size (the 1.5 KB global one in KB), the CLAUDE.md beside an AGENTS.md as
// skipped with why; --json has the same with sizes in bytes.
func TestInspectMemoryListsTheContextFiles(t *testing.T) {
	s := newSandbox(t)
	tree := newContextTree(t, s)

	code, stdout, stderr := s.run(nil, "inspect", "memory", "--json")
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Files []struct {
			Path, Level, Skipped string
			Size                 int64
			Loaded               int
			Truncated            bool
		}
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	all := tree.all()
	if len(got.Files) != len(all) {
		t.Fatalf("%d files listed, want %d: %s", len(got.Files), len(all), stdout)
	}
	for i, f := range all {
		g := got.Files[i]
		size := int64(len(f.text))
		// What the prompt carries is the text without its surrounding space.
		wantLevel, wantLoaded, wantSkipped := f.level, len(strings.TrimSpace(f.text)), ""
		if f.level == "" {
			wantLevel, wantLoaded, wantSkipped = "ancestor", 0, "AGENTS.md is beside it"
		}
		if g.Path != f.path || g.Level != wantLevel || g.Loaded != wantLoaded || g.Skipped != wantSkipped || g.Truncated {
			t.Errorf("file %d = %+v, want %s (%s) loaded %d skipped %q", i, g, f.path, wantLevel, wantLoaded, wantSkipped)
		}
		if f.level != "" && g.Size != size {
			t.Errorf("%s: size %d, want %d", f.path, g.Size, size)
		}
	}

	code, stdout, stderr = s.run(nil, "inspect", "memory")
	if code != headless.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := strings.Split(stdout, "\n")
	wantRows := [][]string{
		{"FILE", "LEVEL", "SIZE", "STATE"},
		{tree.global.path, "global", "1.5 KB", "loaded"},
		{tree.root.path, "ancestor", fmt.Sprintf("%d B", len(tree.root.text)), "loaded"},
		{tree.rootClaude.path, "ancestor", "-", "skipped"},
		{tree.mid.path, "ancestor", fmt.Sprintf("%d B", len(tree.mid.text)), "loaded"},
		{tree.workspace.path, "workspace", fmt.Sprintf("%d B", len(tree.workspace.text)), "loaded"},
	}
	if len(rows) < len(wantRows) {
		t.Fatalf("steer inspect memory printed:\n%s", stdout)
	}
	for i, want := range wantRows {
		if cells := columns.Split(strings.TrimSpace(rows[i]), -1); !slices.Equal(cells, want) {
			t.Errorf("row %d is %q, want the cells %q", i, rows[i], want)
		}
	}
	if !strings.Contains(stdout, "4 files loaded") || !strings.Contains(stdout, "1 skipped") {
		t.Errorf("no summary of 4 loaded and 1 skipped:\n%s", stdout)
	}
}
