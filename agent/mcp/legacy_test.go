package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/steer-tui/steer/agent/mcp/mcptest"
)

// TestLegacySSE: a server of the legacy HTTP+SSE transport works when
// configured as "sse", and when configured as "http" too: it refuses the
// streamable POST of initialize as such a server does, and is reached
// over SSE. Its event stream outlives the start's timeout.
func TestLegacySSE(t *testing.T) {
	srv := mcptest.NewServer(nil)
	ts := httptest.NewServer(sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	for _, tr := range []Transport{TransportSSE, TransportHTTP} {
		t.Run(string(tr), func(t *testing.T) {
			m := started(t, Config{Name: "old", Transport: tr, URL: ts.URL, Timeout: 5 * time.Second})
			if st := statusOf(t, m, "old"); st.State != StateReady || st.Transport != TransportSSE {
				t.Fatalf("status %+v, want ready over sse", st)
			}
			res, err := toolNamed(t, m, "mcp__old__echo").Execute(context.Background(), "c1", map[string]any{"text": "over sse"}, nil)
			if err != nil || res.IsError || res.Content[0].Text != "over sse" {
				t.Fatalf("result %+v, %v", res, err)
			}
			s, _ := m.server("old")
			if _, ok := s.currentLink().transport.(sseTransport); !ok {
				t.Errorf("the link is not a legacy one")
			}
		})
	}
}

// TestLegacyRefusal: the answers to initialize that mean an old server.
func TestLegacyRefusal(t *testing.T) {
	for status, want := range map[int]bool{400: true, 404: true, 405: true, 200: false, 401: false, 500: false} {
		if got := legacyRefusal(status); got != want {
			t.Errorf("legacyRefusal(%d) = %v", status, got)
		}
	}
}
