package mcp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHTTPDropsEarlyCancels: over HTTP, a cancellation posted before
// initialize was answered (the SDK's for an initialize given up) never
// reaches the server, and is answered as the server would (202); after
// initialize, it is posted.
func TestHTTPDropsEarlyCancels(t *testing.T) {
	var mu sync.Mutex
	var posted []string
	base := roundTripper(func(r *http.Request) (*http.Response, error) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		posted = append(posted, string(b))
		mu.Unlock()
		return accepted(r), nil
	})
	g := &initGuard{}
	tr := &headerTransport{base: base, watch: &authWatch{}, init: g}
	post := func(body string) int {
		req := httptest.NewRequest(http.MethodPost, "http://mcp.test/", strings.NewReader(body))
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode
	}
	cancel := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`
	if post(initialize) != http.StatusAccepted || post(cancel) != http.StatusAccepted {
		t.Fatal("status")
	}
	g.initialized()
	post(cancel)
	mu.Lock()
	defer mu.Unlock()
	if want := []string{initialize, cancel}; strings.Join(posted, "\n") != strings.Join(want, "\n") {
		t.Errorf("posted %q, want %q", posted, want)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestGuardedConnDropsEarlyCancels: over stdio, a cancellation written
// before initialize was answered is dropped; after it, it is written.
func TestGuardedConnDropsEarlyCancels(t *testing.T) {
	rec := &writes{}
	g := &initGuard{}
	c := guardedConn{Connection: rec, g: g}
	cancel := &jsonrpc.Request{Method: methodCancelled}
	ping := &jsonrpc.Request{Method: "ping"}
	for _, msg := range []*jsonrpc.Request{cancel, ping} {
		if err := c.Write(context.Background(), msg); err != nil {
			t.Fatal(err)
		}
	}
	g.initialized()
	if err := c.Write(context.Background(), cancel); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(rec.methods, " "), "ping "+methodCancelled; got != want {
		t.Errorf("written %q, want %q", got, want)
	}
}

// writes is a connection that records the methods written to it.
type writes struct {
	sdk.Connection // the methods it does not use: nil
	methods        []string
}

func (w *writes) Write(_ context.Context, msg jsonrpc.Message) error {
	w.methods = append(w.methods, msg.(*jsonrpc.Request).Method)
	return nil
}
