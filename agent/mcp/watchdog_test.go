package mcp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/mcp/mcptest"
)

// TestCallTimeout: a call whose server stays silent past the call timeout
// after its last progress ends as an error naming the key, and the server
// hears it cancelled.
func TestCallTimeout(t *testing.T) {
	calls := &mcptest.Calls{}
	ts := httpServer(t, calls)
	m := started(t, Config{Name: "remote", Transport: TransportHTTP, URL: ts.URL, CallTimeout: 300 * time.Millisecond})
	res, err := toolNamed(t, m, "mcp__remote__slow").Execute(context.Background(), "c1", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(res.Content[0].Text, "toolTimeoutSeconds") {
		t.Fatalf("result: %+v", res)
	}
	select {
	case <-calls.Cancelled():
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the cancellation")
	}
	if st := statusOf(t, m, "remote"); st.State != StateReady {
		t.Errorf("a slow call failed the server: %+v", st)
	}
}

// TestHungServerFails: a ready server that stops answering is marked
// failed once a ping goes unanswered for its timeout.
func TestHungServerFails(t *testing.T) {
	srv := mcptest.NewServer(nil)
	inner := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	var frozen atomic.Bool
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if frozen.Load() && r.Method == http.MethodPost {
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	t.Cleanup(func() { close(release) })
	m := New([]Config{{Name: "remote", Transport: TransportHTTP, URL: ts.URL, Timeout: 500 * time.Millisecond}}, nil, false,
		&Options{Backoff: func(int) time.Duration { return time.Hour }})
	t.Cleanup(m.Close)
	m.Start()
	waitFor(t, m, "ready", func() bool { return statusOf(t, m, "remote").State == StateReady })
	frozen.Store(true)
	waitFor(t, m, "the ping's failure", func() bool { return statusOf(t, m, "remote").State == StateFailed })
	if st := statusOf(t, m, "remote"); !strings.Contains(st.Error, "did not answer a ping within 500ms") {
		t.Errorf("status: %+v", st)
	}
}

// pingGate serves the test server over HTTP, counting the pings it
// answers; while frozen, pings are never answered (everything else is).
type pingGate struct {
	inner    http.Handler
	frozen   atomic.Bool
	gone     atomic.Bool  // pings fail at once, as from a server that went away
	tried    atomic.Int64 // pings that arrived, answered or not
	answered atomic.Int64
	release  chan struct{}
}

func newPingGate(t *testing.T, calls *mcptest.Calls) (*pingGate, *httptest.Server) {
	srv := mcptest.NewServer(calls)
	g := &pingGate{inner: sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil), release: make(chan struct{})}
	ts := httptest.NewServer(g)
	t.Cleanup(ts.Close)
	t.Cleanup(func() { close(g.release) })
	return g, ts
}

func (g *pingGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"method":"ping"`)) {
			g.tried.Add(1)
			if g.gone.Load() {
				http.Error(w, "gone", http.StatusBadGateway)
				return
			}
			if g.frozen.Load() {
				select {
				case <-r.Context().Done():
				case <-g.release:
				}
				return
			}
			defer g.answered.Add(1)
		}
	}
	g.inner.ServeHTTP(w, r)
}

// TestHungCall: a call whose server then answers no ping for its timeout
// ends as an error naming the server and the timeout, the server hears it
// cancelled, and the server is marked failed; a call whose server keeps
// answering pings runs on past many timeouts.
func TestHungCall(t *testing.T) {
	t.Run("no ping answered", func(t *testing.T) {
		calls := &mcptest.Calls{}
		g, ts := newPingGate(t, calls)
		m := New([]Config{{Name: "remote", Transport: TransportHTTP, URL: ts.URL, Timeout: 300 * time.Millisecond}}, nil, false,
			&Options{Backoff: func(int) time.Duration { return time.Hour }})
		t.Cleanup(m.Close)
		m.Start()
		waitFor(t, m, "ready", func() bool { return statusOf(t, m, "remote").State == StateReady })
		res, err := toolNamed(t, m, "mcp__remote__slow").Execute(context.Background(), "c1", nil, func(agent.ToolResult) { g.frozen.Store(true) })
		if err != nil {
			t.Fatal(err)
		}
		if text := res.Content[0].Text; !res.IsError || !strings.Contains(text, "mcp server remote") || !strings.Contains(text, "300ms (timeoutSeconds)") {
			t.Fatalf("result: %+v", res)
		}
		select {
		case <-calls.Cancelled():
		case <-time.After(10 * time.Second):
			t.Fatal("the server never saw the cancellation")
		}
		waitFor(t, m, "failed", func() bool { return statusOf(t, m, "remote").State == StateFailed })
	})
	t.Run("pings answered", func(t *testing.T) {
		calls := &mcptest.Calls{}
		g, ts := newPingGate(t, calls)
		m := New([]Config{{Name: "remote", Transport: TransportHTTP, URL: ts.URL, Timeout: 100 * time.Millisecond}}, nil, false, nil)
		t.Cleanup(m.Close)
		m.Start()
		waitFor(t, m, "ready", func() bool { return statusOf(t, m, "remote").State == StateReady })
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan agent.ToolResult, 1)
		go func() {
			res, _ := toolNamed(t, m, "mcp__remote__slow").Execute(ctx, "c1", nil, nil)
			done <- res
		}()
		// Pings answered while the call runs (those before it count too,
		// so wait for several more than start-up could have had).
		for start := g.answered.Load(); g.answered.Load() < start+5; {
			select {
			case res := <-done:
				t.Fatalf("the call ended while its server answered pings: %+v", res)
			case <-time.After(10 * time.Millisecond): // poll interval
			}
		}
		cancel()
		if res := <-done; res.Content[0].Text != "[aborted]" {
			t.Errorf("result: %+v", res)
		}
		select {
		case <-calls.Cancelled():
		case <-time.After(10 * time.Second):
			t.Fatal("the server never saw the cancellation")
		}
		if st := statusOf(t, m, "remote"); st.State != StateReady {
			t.Errorf("a live server was failed: %+v", st)
		}
	})
}

// TestWaitingServerIsAlive: a server that answers no ping while it waits
// for the user's answer to its elicitation is not hung.
func TestWaitingServerIsAlive(t *testing.T) {
	g, ts := newPingGate(t, nil)
	m := New([]Config{{Name: "remote", Transport: TransportHTTP, URL: ts.URL, Timeout: 100 * time.Millisecond}}, nil, false, nil)
	t.Cleanup(m.Close)
	m.Start()
	waitFor(t, m, "ready", func() bool { return statusOf(t, m, "remote").State == StateReady })
	m.SetElicitor(func(ctx context.Context, _ Elicitation) (ElicitAnswer, error) {
		g.frozen.Store(true)
		// Several pings go unanswered while the user takes their time: the
		// watchdog has judged each before the next is sent.
		deadline := time.After(10 * time.Second) // pings stop coming once the server is failed
		for start := g.tried.Load(); g.tried.Load() < start+4; {
			select {
			case <-ctx.Done():
				return ElicitAnswer{}, ctx.Err()
			case <-deadline:
				return ElicitAnswer{}, errors.New("no more pings came")
			case <-time.After(10 * time.Millisecond): // poll interval
			}
		}
		return ElicitAnswer{Action: ElicitAccept, Content: map[string]any{"name": "Ada"}}, nil
	})
	res, err := toolNamed(t, m, "mcp__remote__ask").Execute(context.Background(), "c1", nil, nil)
	if err != nil || res.IsError || res.Content[0].Text != `accept {"name":"Ada"}` {
		t.Fatalf("result %+v, %v", res, err)
	}
	if st := statusOf(t, m, "remote"); st.State != StateReady {
		t.Errorf("a server waiting on the user was failed: %+v", st)
	}
}

// TestStoppedChildIsRestarted: a stdio server stopped mid-call (SIGSTOP:
// it answers nothing) fails the call within its timeout and is killed and
// restarted.
func TestStoppedChildIsRestarted(t *testing.T) {
	pids := filepath.Join(t.TempDir(), "pids")
	cfg := stdio("local", mcptest.ModeOK)
	cfg.Timeout = 500 * time.Millisecond
	cfg.Env[mcptest.PIDFileEnv] = pids
	m := started(t, cfg)
	// A loaded machine may take longer than the timeout to start the child
	// the first time: the restart policy starts it again.
	waitFor(t, m, "ready", func() bool { return statusOf(t, m, "local").State == StateReady })
	base := statusOf(t, m, "local").Restarts
	stopped := false
	res, err := toolNamed(t, m, "mcp__local__slow").Execute(context.Background(), "c1", nil, func(agent.ToolResult) {
		raw, err := os.ReadFile(pids)
		lines := strings.Fields(string(raw)) // a pid per start: the running child's is the last
		pid := 0
		if len(lines) > 0 {
			pid, _ = strconv.Atoi(lines[len(lines)-1])
		}
		if err != nil || pid == 0 || syscall.Kill(pid, syscall.SIGSTOP) != nil {
			t.Errorf("cannot stop the child %q: %v", raw, err)
			return
		}
		stopped = true
	})
	if err != nil || !stopped {
		t.Fatalf("err %v, stopped %v", err, stopped)
	}
	if text := res.Content[0].Text; !res.IsError || !strings.Contains(text, "mcp server local") || !strings.Contains(text, "500ms (timeoutSeconds)") {
		t.Fatalf("result: %+v", res)
	}
	waitFor(t, m, "the restart", func() bool {
		st := statusOf(t, m, "local")
		return st.State == StateReady && st.Restarts == base+1
	})
}

// TestFormClosesWithItsServer: a server that goes away while the user
// answers its elicitation (its pings fail, rather than go unanswered) is
// failed, and the question's context ends with that failure, so the form
// put to the user closes with the server that asked.
func TestFormClosesWithItsServer(t *testing.T) {
	g, ts := newPingGate(t, nil)
	m := New([]Config{{Name: "remote", Transport: TransportHTTP, URL: ts.URL, Timeout: 100 * time.Millisecond}}, nil, false, nil)
	t.Cleanup(m.Close)
	m.Start()
	waitFor(t, m, "ready", func() bool { return statusOf(t, m, "remote").State == StateReady })
	ended := make(chan error, 1)
	m.SetElicitor(func(ctx context.Context, _ Elicitation) (ElicitAnswer, error) {
		g.gone.Store(true)
		select {
		case <-ctx.Done():
			ended <- context.Cause(ctx)
		case <-time.After(20 * time.Second): // the bound of a failing test
			ended <- nil
		}
		return ElicitAnswer{}, ctx.Err()
	})
	_, _ = toolNamed(t, m, "mcp__remote__ask").Execute(context.Background(), "c1", nil, nil)
	if cause := <-ended; cause == nil || !strings.Contains(cause.Error(), "mcp server remote failed") {
		t.Fatalf("the form's context ended with %v, want the server's failure", cause)
	}
}
