package oauth_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/steer-tui/steer/agent/mcp/oauth"
	"github.com/steer-tui/steer/agent/mcp/oauth/oauthtest"
)

// browserEnv makes the test binary act as a $BROWSER command: it follows
// the URL it is given, as `curl -sL URL` would.
const browserEnv = "OAUTH_TEST_ACT_AS_BROWSER"

func TestMain(m *testing.M) {
	if os.Getenv(browserEnv) == "1" {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := oauthtest.Browser(ctx, os.Args[len(os.Args)-1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// mcpServer is an in-process MCP server from the SDK with one tool, behind
// the OAuth-protected resource.
func mcpServer(t *testing.T, aso oauthtest.AuthServerOptions) (*oauthtest.AuthServer, *oauthtest.Resource) {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "protected"}, nil)
	type in struct {
		Name string `json:"name"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "greet"}, func(ctx context.Context, _ *mcp.CallToolRequest, args in) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello " + args.Name}}}, nil, nil
	})
	as := oauthtest.NewAuthServer(t, aso)
	res := oauthtest.NewResource(t, oauthtest.ResourceOptions{AS: as, ScopesSupported: []string{"mcp"},
		Handler: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)})
	return as, res
}

func callGreet(ctx context.Context, a *oauth.Authorizer, url string) (string, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "steer"}, nil)
	s, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: a.HTTPClient(nil), DisableStandaloneSSE: true}, nil)
	if err != nil {
		return "", err
	}
	defer s.Close()
	r, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "steer"}})
	if err != nil {
		return "", err
	}
	return r.Content[0].(*mcp.TextContent).Text, nil
}

// TestLoginWithBrowserCommandThenToolCall is the check: a login
// whose $BROWSER is a command that follows redirects completes, the token
// file is 0600, a tool call then succeeds, and an expired token is
// refreshed without a prompt.
func TestLoginWithBrowserCommandThenToolCall(t *testing.T) {
	as, res := mcpServer(t, oauthtest.AuthServerOptions{ExpiresIn: 60})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(browserEnv, "1")
	// Each Authorizer has its own environment: the browser goroutine may
	// still be reading it when Login returns.
	env := map[string]string{"BROWSER": exe}
	store := oauth.NewStore(t.TempDir())
	now := time.Now()
	clock := func() time.Time { return now }
	later := func() time.Time { return now.Add(2 * time.Minute) }
	a, err := oauth.New(oauth.Options{Server: "remote", URL: res.URL, Store: store, Now: clock,
		OpenBrowser: oauth.SystemBrowser(func(k string) string { return env[k] })})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()

	// Before the login a headless call fails naming the command.
	_, err = callGreet(ctx, a, res.URL)
	var nl *oauth.NeedsLoginError
	if !errors.As(err, &nl) {
		t.Fatalf("call before login: %v, want a NeedsLoginError", err)
	}

	if err := a.Login(ctx); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(store.Path("remote"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v, mode %v; want 0600", err, info.Mode().Perm())
	}
	got, err := callGreet(ctx, a, res.URL)
	if err != nil || got != "hello steer" {
		t.Fatalf("tool call after login = %q, %v", got, err)
	}

	// Later, the token expired: a new process refreshes it silently.
	as.ExpireAccessTokens()
	noPrompt := map[string]string{"BROWSER": "false"} // a prompt would fail the call
	b, err := oauth.New(oauth.Options{Server: "remote", URL: res.URL, Store: store, Now: later, AutoLogin: true,
		OpenBrowser: oauth.SystemBrowser(func(k string) string { return noPrompt[k] })})
	if err != nil {
		t.Fatal(err)
	}
	got, err = callGreet(ctx, b, res.URL)
	if err != nil || got != "hello steer" {
		t.Fatalf("tool call after expiry = %q, %v", got, err)
	}
	if tok, _ := as.Last("/token"); tok.Form.Get("grant_type") != "refresh_token" {
		t.Errorf("last token request %v, want a refresh", tok.Form)
	}
}

func TestSystemBrowserFailureFailsLogin(t *testing.T) {
	_, res := mcpServer(t, oauthtest.AuthServerOptions{})
	a, err := oauth.New(oauth.Options{Server: "remote", URL: res.URL, Store: oauth.NewStore(t.TempDir()),
		OpenBrowser: oauth.SystemBrowser(func(string) string { return "false" })})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Login(t.Context()); err == nil {
		t.Fatal("Login succeeded with a browser command that fails")
	}
}
