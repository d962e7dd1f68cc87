package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// breakingTransport drops the connection of the first tools/call's
// response after its first SSE event, as a network would, and records the
// Last-Event-ID of the requests that follow.
type breakingTransport struct {
	cut chan struct{} // closed once the stream was broken

	mu       sync.Mutex
	done     bool
	resumeID []string
}

func (b *breakingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		b.mu.Lock()
		b.resumeID = append(b.resumeID, r.Method+" "+id)
		b.mu.Unlock()
	}
	isCall := false
	if r.Method == http.MethodPost && r.Body != nil {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		isCall = bytes.Contains(body, []byte(`"tools/call"`))
	}
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil || !isCall {
		return resp, err
	}
	b.mu.Lock()
	first := !b.done
	b.done = true
	b.mu.Unlock()
	if first {
		resp.Body = &breakingBody{inner: resp.Body, cut: b.cut}
	}
	return resp, nil
}

// breakingBody passes the first event through, then fails as a dropped
// connection does.
type breakingBody struct {
	inner io.ReadCloser
	cut   chan struct{}
	seen  bytes.Buffer
}

func (b *breakingBody) Read(p []byte) (int, error) {
	if idx := bytes.Index(b.seen.Bytes(), []byte("\n\n")); idx >= 0 {
		select {
		case <-b.cut:
		default:
			close(b.cut)
		}
		b.inner.Close()
		return 0, io.ErrUnexpectedEOF
	}
	n, err := b.inner.Read(p[:min(len(p), 1)]) // byte by byte: stop right after the first event
	b.seen.Write(p[:n])
	return n, err
}

func (b *breakingBody) Close() error { return b.inner.Close() }

// TestStreamResumption: a tools/call whose response stream breaks after
// its progress notification is resumed with a GET carrying Last-Event-ID,
// and the call gets its result.
func TestStreamResumption(t *testing.T) {
	tr := &breakingTransport{cut: make(chan struct{})}
	srv := sdk.NewServer(&sdk.Implementation{Name: "resumable", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "twostep", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: 1, Total: 2})
		select {
		case <-tr.cut:
		case <-time.After(10 * time.Second):
			return nil, errors.New("the stream was never broken")
		}
		_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: 2, Total: 2})
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "both steps"}}}, nil
	})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{EventStore: sdk.NewMemoryEventStore(nil)}))
	t.Cleanup(ts.Close)
	m := New([]Config{{Name: "remote", Transport: TransportHTTP, URL: ts.URL, Timeout: 5 * time.Second}}, nil, false,
		&Options{Backoff: func(int) time.Duration { return 0 }, HTTPClient: func(string) *http.Client { return &http.Client{Transport: tr} }})
	t.Cleanup(m.Close)
	m.Start()
	waitFor(t, m, "ready", func() bool { return statusOf(t, m, "remote").State == StateReady })
	res, err := toolNamed(t, m, "mcp__remote__twostep").Execute(context.Background(), "c1", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || res.Content[0].Text != "both steps" {
		t.Fatalf("result after the break: %+v", res)
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if len(tr.resumeID) == 0 || !strings.HasPrefix(tr.resumeID[0], "GET ") {
		t.Errorf("no GET resumed the stream with Last-Event-ID: %v", tr.resumeID)
	}
}
