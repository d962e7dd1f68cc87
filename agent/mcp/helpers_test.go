package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/steer-tui/steer/agent/mcp/mcptest"
	"github.com/steer-tui/steer/agent/mcp/oauth/oauthtest"
)

// browserEnv makes the test binary act as a $BROWSER command that follows
// the URL it is given (oauthtest.Browser).
const browserEnv = "STEER_MCP_TEST_BROWSER"

func TestMain(m *testing.M) {
	mcptest.MaybeServe()
	if os.Getenv(browserEnv) == "1" {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := oauthtest.Browser(ctx, os.Args[len(os.Args)-1]); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// stdio is a server config that runs the test binary in mode.
func stdio(name, mode string) Config {
	cmd, args, env := mcptest.Command(mode)
	return Config{Name: name, Transport: TransportStdio, Command: cmd, Args: args, Env: env, Timeout: 5 * time.Second}
}

// httpServer serves the test server over streamable HTTP on loopback.
func httpServer(t *testing.T, calls *mcptest.Calls) *httptest.Server {
	srv := mcptest.NewServer(calls)
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	return ts
}

// started makes, starts and settles a manager of servers, closed with the
// test; restarts wait for nothing.
func started(t *testing.T, servers ...Config) *Manager {
	t.Helper()
	m := New(servers, nil, false, &Options{Backoff: func(int) time.Duration { return 0 }})
	t.Cleanup(m.Close)
	m.Start()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := m.Settled(ctx); err != nil {
		t.Fatalf("Settled: %v", err)
	}
	return m
}

// waitFor waits, on the manager's change notifications, until cond holds.
func waitFor(t *testing.T, m *Manager, what string, cond func() bool) {
	t.Helper()
	changed := make(chan struct{}, 1)
	defer m.Subscribe(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})()
	deadline := time.After(20 * time.Second)
	for !cond() {
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("timed out waiting for %s; servers: %+v", what, m.Servers())
		}
	}
}

func statusOf(t *testing.T, m *Manager, name string) Status {
	t.Helper()
	for _, s := range m.Servers() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no server %s", name)
	return Status{}
}

func toolNamed(t *testing.T, m *Manager, name string) *Tool {
	t.Helper()
	for _, tool := range m.Tools() {
		if tool.Spec().Name == name {
			return tool
		}
	}
	t.Fatalf("no tool %s among %d", name, len(m.Tools()))
	return nil
}
