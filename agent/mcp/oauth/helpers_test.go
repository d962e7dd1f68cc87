package oauth

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/mcp/oauth/oauthtest"
)

// fixture is an authorization server, a protected resource and an
// Authorizer for it whose browser follows redirects.
type fixture struct {
	as    *oauthtest.AuthServer
	res   *oauthtest.Resource
	store *Store
	a     *Authorizer
	clock *clock
	// browsed counts the browser flows started.
	browsed *counter
}

type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) inc() { c.mu.Lock(); c.n++; c.mu.Unlock() }
func (c *counter) get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newFixture(t *testing.T, aso oauthtest.AuthServerOptions, ro oauthtest.ResourceOptions, edit func(*Options)) *fixture {
	t.Helper()
	f := &fixture{as: oauthtest.NewAuthServer(t, aso), store: NewStore(t.TempDir()), clock: &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}, browsed: &counter{}}
	ro.AS = f.as
	f.res = oauthtest.NewResource(t, ro)
	opts := Options{
		Server: "remote", URL: f.res.URL, Store: f.store, AutoLogin: true, Now: f.clock.now,
		OpenBrowser: func(ctx context.Context, url string) error {
			f.browsed.inc()
			return oauthtest.Browser(ctx, url)
		},
	}
	if edit != nil {
		edit(&opts)
	}
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	f.a = a
	return f
}

// get sends one request to the resource through the Authorizer.
func (f *fixture) get(t *testing.T) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, f.res.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := f.a.HTTPClient(nil).Do(req)
	if err == nil {
		resp.Body.Close()
	}
	return resp, err
}

func (f *fixture) mustGet(t *testing.T) {
	t.Helper()
	resp, err := f.get(t)
	if err != nil {
		t.Fatalf("request: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("request: status %d", resp.StatusCode)
	}
}

func (f *fixture) record(t *testing.T) Record {
	t.Helper()
	r, err := f.store.Load("remote")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func asNeedsLogin(err error) *NeedsLoginError {
	var nl *NeedsLoginError
	if errors.As(err, &nl) {
		return nl
	}
	return nil
}
