package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner/headless"
)

// TestExportImportContinue: two turns in one state directory, exported as
// JSONL and imported into a fresh one with --workspace, give a session
// whose context is the original's, and whose --continue sends the model
// every earlier message.
func TestExportImportContinue(t *testing.T) {
	a := newSandbox(t)
	for _, args := range [][]string{{"run", "the first zebra question"}, {"run", "--continue", "the second yak question"}} {
		if code, _, errOut := a.run(nil, append([]string{"--pace", "0"}, args...)...); code != headless.ExitOK {
			t.Fatalf("steer %v: exit %d: %s", args, code, errOut)
		}
	}
	id := onlySession(t, a)
	code, jsonl, errOut := a.run(nil, "sessions", "export", id, "--format", "jsonl")
	if code != headless.ExitOK {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	b := newSandbox(t)
	elsewhere := mkdir(t, t.TempDir(), "moved")
	code, out, errOut := b.run(strings.NewReader(jsonl), "sessions", "import", "-", "--workspace", elsewhere, "--json")
	var got struct {
		ID, Workspace string
		Entries       int
	}
	if code != headless.ExitOK || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("import: exit %d: %s %s", code, out, errOut)
	}
	if got.ID == id || got.Workspace != elsewhere || got.Entries != 4 {
		t.Fatalf("imported %+v, want a new id, workspace %s and 4 entries", got, elsewhere)
	}
	_, want, _ := a.run(nil, "sessions", "show", id, "--context", "--json")
	_, have, _ := b.run(nil, "sessions", "show", got.ID, "--context", "--json")
	if want == "" || have != want {
		t.Fatalf("the imported context differs:\n got %s\nwant %s", have, want)
	}

	srv := &recordingServer{}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	cfg := localConfig(t, ts.URL+"/v1", []string{"m"})
	cont := b.command("--config", cfg, "--model", "local/m", "run", "--continue", "and the third?")
	cont.Dir = elsewhere
	var stderr strings.Builder
	cont.Stderr = &stderr
	if err := cont.Start(); err != nil {
		t.Fatal(err)
	}
	if code := exitCode(t, cont, time.Minute); code != headless.ExitOK {
		t.Fatalf("run --continue in the imported workspace: exit %d: %s", code, stderr.String())
	}
	bodies := srv.bodies()
	if len(bodies) != 1 {
		t.Fatalf("%d requests, want 1", len(bodies))
	}
	for _, word := range []string{"the first zebra question", "the second yak question", "and the third?"} {
		if !strings.Contains(bodies[0], word) {
			t.Errorf("the model was not sent %q:\n%.3000s", word, bodies[0])
		}
	}
}

// TestImportRefusesAndCreatesNothing: a malformed line, an unknown version
// or a missing file is a usage error naming the problem, and no session
// appears.
func TestImportRefusesAndCreatesNothing(t *testing.T) {
	s := newSandbox(t)
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	header := `{"type":"session","version":2,"id":"s_x","leaf":"1"}`
	cases := []struct{ name, body, want string }{
		{"malformed line", header + "\n{oops\n", "line 2: not an entry"},
		{"unknown version", `{"type":"session","version":7}` + "\n", "line 1: unsupported version 7"},
		{"a label on no entry", header + "\n" + `{"type":"label","id":"1","label":"x"}` + "\n", "line 2: entry \"1\": the label names no entry"},
		{"not a tree", header + "\n" + `{"type":"message","id":"1","parentId":"9","message":{"role":"user","content":"hi","timestamp":1}}` + "\n", `parent "9"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(bad, []byte(c.body), 0o600); err != nil {
				t.Fatal(err)
			}
			code, _, errOut := s.run(nil, "sessions", "import", bad)
			if code != headless.ExitUsage || !strings.Contains(errOut, c.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, errOut, headless.ExitUsage, c.want)
			}
		})
	}
	if code, _, errOut := s.run(nil, "sessions", "import", filepath.Join(t.TempDir(), "missing.jsonl")); code != headless.ExitUsage || !strings.Contains(errOut, "no such file") {
		t.Fatalf("missing file: exit %d, %q", code, errOut)
	}
	if _, out, _ := s.run(nil, "sessions", "--json"); strings.TrimSpace(out) != "[]" {
		t.Fatalf("a refused import left sessions: %s", out)
	}
}

// onlySession is the id of the sandbox's one saved session.
func onlySession(t *testing.T, s *sandbox) string {
	t.Helper()
	_, out, _ := s.run(nil, "sessions", "--json")
	var list []struct{ ID string }
	if json.Unmarshal([]byte(out), &list) != nil || len(list) != 1 {
		t.Fatalf("sessions: %q", out)
	}
	return list[0].ID
}

// recordingServer is an OpenAI-compatible server that records each
// request's body and answers "ok".
type recordingServer struct {
	mu   sync.Mutex
	seen []string
}

func (r *recordingServer) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.seen = append(r.seen, string(body))
	r.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, openAIChunk(`{"role":"assistant","content":"ok"}`, "")+openAIChunk(`{}`, "stop")+"data: [DONE]\n\n")
}

func (r *recordingServer) bodies() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.seen...)
}
