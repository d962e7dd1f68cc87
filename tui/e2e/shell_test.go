package e2e

import (
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
)

// loopback is an OpenAI-compatible server on a loopback port that answers
// every request with "done" and keeps the request bodies.
type loopback struct {
	mu     sync.Mutex
	bodies []string
}

func (l *loopback) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	l.mu.Lock()
	l.bodies = append(l.bodies, string(body))
	l.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta, finish string) string {
		return `data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":` + delta +
			`,"finish_reason":` + finish + `}]}` + "\n\n"
	}
	fmt.Fprint(w, chunk(`{"role":"assistant","content":"loopback answered"}`, "null")+chunk(`{}`, `"stop"`)+"data: [DONE]\n\n")
}

func (l *loopback) requests() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.bodies...)
}

// startSteerOnLoopback runs steer in tmux on a model of a loopback server.
func startSteerOnLoopback(t *testing.T, srv *loopback) *pane {
	t.Helper()
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	cfg := filepath.Join(t.TempDir(), "config.json")
	err := os.WriteFile(cfg, []byte(`{"providers": {"local": {"api": "openai-chat", "baseURL": "`+ts.URL+`/v1",
		"models": [{"id": "small", "contextWindow": 8192, "maxOutput": 1024}]}}}`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	return startPaneShowing(t, fmt.Sprintf("exec %q --state-dir %q --config %q --model local/small --approve auto", steerBin, t.TempDir(), cfg), "local/small")
}

// TestShellOutputReachesTheModel: `!cmd` runs the command, shows it as a
// block, and the next prompt's request holds its output; `!!cmd` is shown
// and never sent.
func TestShellOutputReachesTheModel(t *testing.T) {
	srv := &loopback{}
	p := startSteerOnLoopback(t, srv)
	p.typeText("!echo shared-$((40+2))", "Enter")
	p.waitFor("the shell block", "✓ ! echo shared-$((40+2)) · exit 0", 10*time.Second)
	p.waitFor("its output", "shared-42", 5*time.Second)
	p.typeText("!!echo private-$((6*7))", "Enter")
	p.waitFor("the private block", "not sent to the model", 10*time.Second)
	p.waitFor("its output", "private-42", 5*time.Second)
	if n := len(srv.requests()); n != 0 {
		t.Fatalf("%d requests for shell commands alone", n)
	}
	p.typeText("what did it print?", "Enter")
	p.waitFor("the answer", "loopback answered", 10*time.Second)
	reqs := srv.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	if !strings.Contains(reqs[0], "shared-42") || !strings.Contains(reqs[0], "echo shared-") {
		t.Errorf("the request lacks the ! command and its output:\n%s", reqs[0])
	}
	if strings.Contains(reqs[0], "private-42") || strings.Contains(reqs[0], "echo private") {
		t.Errorf("the request holds the !! command:\n%s", reqs[0])
	}
}
