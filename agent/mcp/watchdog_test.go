package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

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
