package oauth

import (
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/mcp/oauth/oauthtest"
)

func countPath(paths []string, p string) int {
	n := 0
	for _, x := range paths {
		if x == p {
			n++
		}
	}
	return n
}

func TestTransportAuthorizesByItselfWithAutoLogin(t *testing.T) {
	f := newFixture(t, oauthtest.AuthServerOptions{}, oauthtest.ResourceOptions{}, nil)
	f.mustGet(t)
	f.mustGet(t)
	if f.browsed.get() != 1 {
		t.Errorf("browser opened %d times, want 1", f.browsed.get())
	}
}

func TestTransportRefreshesExpiredTokenWithoutPrompt(t *testing.T) {
	f := newFixture(t, oauthtest.AuthServerOptions{ExpiresIn: 3600}, oauthtest.ResourceOptions{}, nil)
	if err := f.a.Login(t.Context()); err != nil {
		t.Fatal(err)
	}
	before := f.record(t).Token
	seen := len(f.res.Seen())
	f.clock.advance(2 * time.Hour)
	f.as.ExpireAccessTokens()
	// A fresh Authorizer, as a new steer process would have, with no
	// browser at all.
	a, err := New(Options{Server: "remote", URL: f.res.URL, Store: f.store, Now: f.clock.now})
	if err != nil {
		t.Fatal(err)
	}
	f.a = a
	f.mustGet(t)
	tok, _ := f.as.Last("/token")
	if tok.Form.Get("grant_type") != "refresh_token" || tok.Form.Get("resource") != f.res.URL {
		t.Errorf("token request %v, want a refresh with the resource", tok.Form)
	}
	after := f.record(t).Token
	if after.AccessToken == before.AccessToken || after.RefreshToken == before.RefreshToken {
		t.Error("the refreshed (rotated) tokens were not stored")
	}
	if got := f.res.Seen()[seen:]; !slices.Equal(got, []string{"/mcp"}) {
		t.Errorf("resource saw %v, want one request: the token was refreshed before sending", got)
	}
	if f.browsed.get() != 1 {
		t.Errorf("browser opened %d times, want only the first login", f.browsed.get())
	}
}

func TestTransportRefreshesOn401(t *testing.T) {
	f := newFixture(t, oauthtest.AuthServerOptions{}, oauthtest.ResourceOptions{}, func(o *Options) { o.AutoLogin = false })
	if err := f.a.Login(t.Context()); err != nil {
		t.Fatal(err)
	}
	f.as.ExpireAccessTokens() // no expires_in: only the 401 tells
	f.mustGet(t)
	if tok, _ := f.as.Last("/token"); tok.Form.Get("grant_type") != "refresh_token" {
		t.Errorf("last token request %v, want a refresh", tok.Form)
	}
}

func TestTransportRefusedRefreshNeedsLogin(t *testing.T) {
	f := newFixture(t, oauthtest.AuthServerOptions{}, oauthtest.ResourceOptions{}, func(o *Options) { o.AutoLogin = false })
	if err := f.a.Login(t.Context()); err != nil {
		t.Fatal(err)
	}
	f.as.ExpireAccessTokens()
	f.as.RevokeRefreshTokens()
	_, err := f.get(t)
	if asNeedsLogin(err) == nil {
		t.Fatalf("error = %v, want NeedsLoginError", err)
	}
	rec := f.record(t)
	if rec.Token != nil {
		t.Error("the dead token is still stored")
	}
	if rec.Client == nil {
		t.Error("the registered client was dropped with the token")
	}
}

func TestTransportStepUp(t *testing.T) {
	need := []string{"read"}
	var mu sync.Mutex
	ro := oauthtest.ResourceOptions{ChallengeScope: []string{"read"}, Require: func(*http.Request) []string {
		mu.Lock()
		defer mu.Unlock()
		return need
	}}
	f := newFixture(t, oauthtest.AuthServerOptions{}, ro, nil)
	f.mustGet(t)
	mu.Lock()
	need = []string{"write"}
	mu.Unlock()
	f.mustGet(t)
	auth, _ := f.as.Last("/authorize")
	if got := strings.Fields(auth.Form.Get("scope")); !slices.Equal(got, []string{"write", "read"}) {
		t.Errorf("step-up scope %v, want the union [write read]", got)
	}
	if f.browsed.get() != 2 {
		t.Errorf("browser opened %d times, want 2", f.browsed.get())
	}
}

func TestTransportStepUpLimit(t *testing.T) {
	// The server grants less than it asks for, so no authorization helps.
	f := newFixture(t, oauthtest.AuthServerOptions{GrantScope: func([]string) []string { return []string{"read"} }},
		oauthtest.ResourceOptions{Require: func(*http.Request) []string { return []string{"admin"} }}, nil)
	_, err := f.get(t)
	if !errors.Is(err, ErrTooManyAuthorizations) {
		t.Fatalf("error = %v, want ErrTooManyAuthorizations", err)
	}
	// One authorization for the 401, two for the 403s: three in all.
	if f.browsed.get() != maxAuthorizations {
		t.Errorf("browser opened %d times, want %d", f.browsed.get(), maxAuthorizations)
	}
}

func TestTransportStepUpWithoutAutoLogin(t *testing.T) {
	f := newFixture(t, oauthtest.AuthServerOptions{}, oauthtest.ResourceOptions{Require: func(*http.Request) []string { return []string{"admin"} }},
		func(o *Options) { o.AutoLogin = false })
	if err := f.a.Login(t.Context()); err != nil {
		t.Fatal(err)
	}
	_, err := f.get(t)
	nl := asNeedsLogin(err)
	if nl == nil || !slices.Equal(nl.Scope, []string{"admin"}) {
		t.Fatalf("error = %v, want NeedsLoginError for scope admin", err)
	}
	if !slices.Contains(f.record(t).Scopes, "admin") {
		t.Error("the step-up scope was not saved")
	}
	// The next login asks for it.
	if err := f.a.Login(t.Context()); err != nil {
		t.Fatal(err)
	}
	if auth, _ := f.as.Last("/authorize"); !strings.Contains(auth.Form.Get("scope"), "admin") {
		t.Errorf("next login scope %q, want it to include admin", auth.Form.Get("scope"))
	}
	f.mustGet(t)
}

func TestTransportLeavesConfiguredAuthorization(t *testing.T) {
	f := newFixture(t, oauthtest.AuthServerOptions{}, oauthtest.ResourceOptions{}, nil)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, f.res.URL, nil)
	req.Header.Set("Authorization", "Bearer configured")
	resp, err := f.a.HTTPClient(nil).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || f.browsed.get() != 0 {
		t.Errorf("status %d, browser %d: a configured Authorization header must pass untouched", resp.StatusCode, f.browsed.get())
	}
}

func TestTransportReplaysBody(t *testing.T) {
	var bodies []string
	var mu sync.Mutex
	ro := oauthtest.ResourceOptions{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
	})}
	f := newFixture(t, oauthtest.AuthServerOptions{}, ro, nil)
	// A body without GetBody must be buffered to survive the 401 retry.
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, f.res.URL, struct{ *strings.Reader }{strings.NewReader(`{"jsonrpc":"2.0"}`)})
	resp, err := f.a.HTTPClient(nil).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if !slices.Equal(bodies, []string{`{"jsonrpc":"2.0"}`}) {
		t.Errorf("server got bodies %q", bodies)
	}
}

func TestTransportConcurrent401sShareOneLogin(t *testing.T) {
	f := newFixture(t, oauthtest.AuthServerOptions{}, oauthtest.ResourceOptions{}, nil)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			resp, err := f.get(t)
			if err == nil && resp.StatusCode != http.StatusOK {
				err = errors.New(resp.Status)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if f.browsed.get() != 1 {
		t.Errorf("browser opened %d times, want 1 for all concurrent requests", f.browsed.get())
	}
}

func TestTransportExpiredTokenWithoutRefreshNeedsLogin(t *testing.T) {
	f := newFixture(t, oauthtest.AuthServerOptions{ExpiresIn: 60, NoRefresh: true}, oauthtest.ResourceOptions{}, func(o *Options) { o.AutoLogin = false })
	if err := f.a.Login(t.Context()); err != nil {
		t.Fatal(err)
	}
	f.clock.advance(time.Hour)
	if _, err := f.get(t); asNeedsLogin(err) == nil {
		t.Fatalf("error = %v, want NeedsLoginError", err)
	}
}

func TestTransportAdoptsLoginFromAnotherProcess(t *testing.T) {
	f := newFixture(t, oauthtest.AuthServerOptions{}, oauthtest.ResourceOptions{}, func(o *Options) { o.AutoLogin = false })
	if _, err := f.get(t); asNeedsLogin(err) == nil {
		t.Fatalf("error = %v, want NeedsLoginError", err)
	}
	// `steer mcp login` runs elsewhere with the same store.
	other, err := New(Options{Server: "remote", URL: f.res.URL, Store: f.store, OpenBrowser: oauthtest.Browser})
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Login(t.Context()); err != nil {
		t.Fatal(err)
	}
	f.mustGet(t)
}
