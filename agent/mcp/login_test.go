package mcp

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/steer-tui/steer/agent/mcp/mcptest"
	"github.com/steer-tui/steer/agent/mcp/oauth"
	"github.com/steer-tui/steer/agent/mcp/oauth/oauthtest"
)

// TestLoginThenToolCall: a server behind OAuth is "needs login" naming
// the command until Login, whose browser ($BROWSER, here this binary
// following the redirects) completes the flow; the server then comes up
// and its tools answer.
func TestLoginThenToolCall(t *testing.T) {
	srv := mcptest.NewServer(nil)
	as := oauthtest.NewAuthServer(t, oauthtest.AuthServerOptions{})
	res := oauthtest.NewResource(t, oauthtest.ResourceOptions{AS: as, ScopesSupported: []string{"mcp"},
		Handler: sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(browserEnv, "1")
	t.Setenv("BROWSER", exe)
	m := New([]Config{{Name: "remote", Transport: TransportHTTP, URL: res.URL}}, nil, false,
		&Options{OAuthStore: oauth.NewStore(t.TempDir())})
	t.Cleanup(m.Close)
	m.Start()
	if err := m.Settled(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := statusOf(t, m, "remote"); st.State != StateNeedsLogin || !strings.Contains(st.Error, "steer mcp login remote") {
		t.Fatalf("before the login: %+v", st)
	}
	if err := m.Login(context.Background(), "remote"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, m, "the server after the login", func() bool { return statusOf(t, m, "remote").State == StateReady })
	r, _ := toolNamed(t, m, "mcp__remote__echo").Execute(context.Background(), "c1", map[string]any{"text": "signed in"}, nil)
	if r.IsError || r.Content[0].Text != "signed in" {
		t.Errorf("call after the login: %+v", r)
	}
}
