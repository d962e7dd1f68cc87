package mcp

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/steer-tui/steer/agent/mcp/mcptest"
)

func TestExpand(t *testing.T) {
	env := func(k string) string { return map[string]string{"TOKEN": "t0k3n", "EMPTY": ""}[k] }
	cases := []struct{ in, want, err string }{
		{"plain", "plain", ""},
		{"Bearer ${TOKEN}", "Bearer t0k3n", ""},
		{"${MISSING:-dflt}/${TOKEN}", "dflt/t0k3n", ""},
		{"${EMPTY:-used}", "used", ""},
		{"${MISSING}", "", "MISSING is not set"},
		{"${TOKEN", "", "unclosed ${"},
		{"${1X}", "", "not a variable name"},
	}
	for _, c := range cases {
		got, err := Expand(c.in, env, nil)
		if got != c.want || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("Expand(%q) = %q, %v; want %q, %q", c.in, got, err, c.want, c.err)
		}
	}
}

func TestToolFilter(t *testing.T) {
	f := ToolFilter{Allow: []string{"a", "b"}, Deny: []string{"b"}}
	for name, want := range map[string]bool{"a": true, "b": false, "c": false} {
		if f.Admits(name) != want {
			t.Errorf("Admits(%s) = %v", name, !want)
		}
	}
	if !(ToolFilter{Deny: []string{"x"}}).Admits("y") {
		t.Error("an empty allow list allows")
	}
}

func TestTrustStore(t *testing.T) {
	dir := t.TempDir()
	ts := NewTrustStore(dir)
	if ok, err := ts.Trusted("/w/.mcp.json", "h1"); ok || err != nil {
		t.Fatalf("empty store: %v, %v", ok, err)
	}
	body := `{"trusted": [{"path": "/w/.mcp.json", "sha256": "h1"}]}`
	if err := os.WriteFile(filepath.Join(dir, TrustFile), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if ok, _ := ts.Trusted("/w/.mcp.json", "h1"); !ok {
		t.Error("an allowed file is not trusted")
	}
	if ok, _ := ts.Trusted("/w/.mcp.json", "h2"); ok {
		t.Error("a changed file is still trusted")
	}
}

// TestNeedsLogin: an HTTP server that answers 401 is "needs login",
// naming the command, and is not restarted.
func TestNeedsLogin(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(ts.Close)
	m := started(t, Config{Name: "remote", Transport: TransportHTTP, URL: ts.URL})
	st := statusOf(t, m, "remote")
	if st.State != StateNeedsLogin || st.LoginHint != "steer mcp login remote" || st.Restarts != 0 || !strings.Contains(st.Error, "steer mcp login remote") {
		t.Errorf("%+v", st)
	}
}

// TestSecretsRedacted: a failure naming an expanded secret shows *** in
// its place.
func TestSecretsRedacted(t *testing.T) {
	m := New([]Config{{Name: "remote", Transport: TransportHTTP, URL: "http://127.0.0.1:1/mcp?key=${KEY}", Timeout: 5 * time.Second}}, nil, false,
		&Options{Getenv: func(string) string { return "s3cr3t-value" }, Backoff: func(int) time.Duration { return time.Hour }})
	t.Cleanup(m.Close)
	m.Start()
	if err := m.Settled(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := statusOf(t, m, "remote")
	if st.State != StateFailed || strings.Contains(st.Error, "s3cr3t") || !strings.Contains(st.Error, "***") {
		t.Errorf("%+v", st)
	}
}

// TestSessionDeletedOnClose: closing sends DELETE for the session.
func TestSessionDeletedOnClose(t *testing.T) {
	srv := mcptest.NewServer(nil)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	deleted := make(chan string, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			deleted <- r.Header.Get("Mcp-Session-Id")
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	m := New([]Config{{Name: "remote", Transport: TransportHTTP, URL: ts.URL}}, nil, false, nil)
	m.Start()
	if err := m.Settled(context.Background()); err != nil {
		t.Fatal(err)
	}
	m.Close()
	select {
	case id := <-deleted:
		if id == "" {
			t.Error("DELETE without the session id")
		}
	default:
		t.Error("no DELETE on Close")
	}
}

// TestElicitationAndLogs: an elicitation is declined when nobody answers
// and answered by the hook once set; server log messages reach the log.
func TestElicitationAndLogs(t *testing.T) {
	var logs lockedBuffer
	ts := httpServer(t, nil)
	m := New([]Config{{Name: "remote", Transport: TransportHTTP, URL: ts.URL}}, nil, false,
		&Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	t.Cleanup(m.Close)
	m.Start()
	if err := m.Settled(context.Background()); err != nil {
		t.Fatal(err)
	}
	ask := toolNamed(t, m, "mcp__remote__ask")
	if res, _ := ask.Execute(context.Background(), "c1", nil, nil); res.Content[0].Text != "decline null" {
		t.Errorf("headless: %+v", res)
	}
	m.SetElicitor(func(_ context.Context, e Elicitation) (ElicitAnswer, error) {
		if e.Server != "remote" || e.Message != "Your name?" {
			t.Errorf("elicitation: %+v", e)
		}
		return ElicitAnswer{Action: ElicitAccept, Content: map[string]any{"name": "Ada"}}, nil
	})
	if res, _ := ask.Execute(context.Background(), "c2", nil, nil); res.Content[0].Text != `accept {"name":"Ada"}` {
		t.Errorf("answered: %+v", res)
	}
	if _, err := toolNamed(t, m, "mcp__remote__echo").Execute(context.Background(), "c3", map[string]any{"text": "x"}, nil); err != nil {
		t.Fatal(err)
	}
	m.Close() // the log message arrived before the call's result
	if !strings.Contains(logs.String(), "echoing x") {
		t.Errorf("log: %s", logs.String())
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
