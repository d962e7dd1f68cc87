package mcp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSamplingCapability: steer tells a server it may sample (the sampling
// capability in initialize) only when its configuration allows it.
func TestSamplingCapability(t *testing.T) {
	for _, tt := range []struct {
		name  string
		allow bool
	}{{"not allowed", false}, {"allowed", true}} {
		t.Run(tt.name, func(t *testing.T) {
			seen := make(chan bool, 1)
			srv := sdk.NewServer(&sdk.Implementation{Name: "caps", Version: "1"}, &sdk.ServerOptions{
				InitializedHandler: func(_ context.Context, req *sdk.InitializedRequest) {
					seen <- req.Session.InitializeParams().Capabilities.Sampling != nil
				}})
			ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
			t.Cleanup(ts.Close) // after the manager's Close: its session holds a connection
			started(t, Config{Name: "caps", Transport: TransportHTTP, URL: ts.URL, AllowSampling: tt.allow})
			if got := <-seen; got != tt.allow {
				t.Errorf("the server saw the sampling capability: %v", got)
			}
		})
	}
}

// TestURLElicitationRefused: steer declares form-mode elicitation only, so
// a url-mode request (which the SDK's server does not send then, but
// another server may) is refused with invalid params (-32602), as the
// specification requires of a mode not declared, and no one is asked.
func TestURLElicitationRefused(t *testing.T) {
	o := &Options{}
	o.elicit = func(context.Context, Elicitation) (ElicitAnswer, error) {
		t.Error("a url-mode request reached the user")
		return ElicitAnswer{Action: ElicitAccept}, nil
	}
	s := newServer(Config{Name: "urls", Transport: TransportHTTP, URL: "http://127.0.0.1:1"}, o, func() {}, StateReady)
	_, err := s.elicit(context.Background(), &sdk.ElicitParams{Mode: "url", Message: "Sign in", URL: "https://example.com/connect", ElicitationID: "e1"})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("the server reads %v, want invalid params", err)
	}
}
