package oauth_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/steer-tui/steer/agent/mcp/oauth"
)

// A headless request to a server that wants a login fails with an error
// that says what to run; `steer mcp login NAME` runs Login.
func Example() {
	stateDir, _ := os.MkdirTemp("", "steer-state")
	defer os.RemoveAll(stateDir)
	mcpServer := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer scope="notes:read"`)
		w.WriteHeader(http.StatusUnauthorized)
	})
	srv := httptest.NewServer(mcpServer)
	defer srv.Close()

	a, err := oauth.New(oauth.Options{
		Server: "notes",
		URL:    srv.URL + "/mcp",
		Store:  oauth.NewStore(filepath.Join(stateDir, "mcp-oauth")),
		// AutoLogin: true would open the browser here instead.
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL+"/mcp", nil)
	_, err = a.HTTPClient(nil).Do(req)
	var nl *oauth.NeedsLoginError
	if errors.As(err, &nl) {
		fmt.Println(nl)
	}
	// Output:
	// MCP server "notes" needs a login (no token yet): run `steer mcp login notes` (it asks for scope notes:read)
}
