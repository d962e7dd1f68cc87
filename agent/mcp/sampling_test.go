package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

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
