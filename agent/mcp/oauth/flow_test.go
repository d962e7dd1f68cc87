package oauth

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/mcp/oauth/oauthtest"
)

func TestLoginWithDynamicRegistration(t *testing.T) {
	f := newFixture(t, oauthtest.AuthServerOptions{}, oauthtest.ResourceOptions{ScopesSupported: []string{"mcp:read", "mcp:tools"}}, nil)
	if err := f.a.Login(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.as.Last("/register"); !ok {
		t.Fatal("no dynamic registration")
	}
	auth, _ := f.as.Last("/authorize")
	q := auth.Form
	for k, want := range map[string]string{
		"response_type":         "code",
		"code_challenge_method": "S256",
		"resource":              f.res.URL,
		"scope":                 "mcp:read mcp:tools",
	} {
		if q.Get(k) != want {
			t.Errorf("authorization request %s = %q, want %q", k, q.Get(k), want)
		}
	}
	if !strings.HasPrefix(q.Get("redirect_uri"), "http://127.0.0.1:") || !strings.HasSuffix(q.Get("redirect_uri"), "/callback") {
		t.Errorf("redirect_uri %q is not the loopback listener", q.Get("redirect_uri"))
	}
	tok, _ := f.as.Last("/token")
	if tok.Form.Get("resource") != f.res.URL || tok.Form.Get("code_verifier") == "" || tok.Form.Get("grant_type") != "authorization_code" {
		t.Errorf("token request %v lacks resource, verifier or grant", tok.Form)
	}
	info, err := os.Stat(f.store.Path("remote"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %04o, want 0600", info.Mode().Perm())
	}
	rec := f.record(t)
	if rec.Client == nil || rec.Client.ClientID != q.Get("client_id") || rec.Token == nil {
		t.Fatalf("stored record %+v lacks the client or the token", rec)
	}
	f.mustGet(t)
	if f.browsed.get() != 1 {
		t.Errorf("browser opened %d times, want 1", f.browsed.get())
	}

	// A second login reuses the registered client on its port.
	if err := f.a.Login(t.Context()); err != nil {
		t.Fatal(err)
	}
	if registrations := countPath(f.as.Paths(), "/register"); registrations != 1 {
		t.Errorf("%d registrations, want the first client reused", registrations)
	}
}

func TestLoginScopeFromChallenge(t *testing.T) {
	f := newFixture(t, oauthtest.AuthServerOptions{}, oauthtest.ResourceOptions{ChallengeScope: []string{"files:read"}, ScopesSupported: []string{"a", "b"}}, nil)
	if err := f.a.Login(t.Context()); err != nil {
		t.Fatal(err)
	}
	auth, _ := f.as.Last("/authorize")
	if got := auth.Form.Get("scope"); got != "files:read" {
		t.Errorf("scope %q, want the challenge's files:read", got)
	}
}

func TestLoginWithoutScopesOmitsScope(t *testing.T) {
	f := newFixture(t, oauthtest.AuthServerOptions{}, oauthtest.ResourceOptions{}, nil)
	if err := f.a.Login(t.Context()); err != nil {
		t.Fatal(err)
	}
	auth, _ := f.as.Last("/authorize")
	if _, ok := auth.Form["scope"]; ok {
		t.Errorf("scope %q sent, want none", auth.Form.Get("scope"))
	}
}

func TestConfiguredClientAuthentication(t *testing.T) {
	tests := []struct {
		name      string
		methods   []string
		secret    string
		wantBasic bool
		wantErr   string
	}{
		{"basic by default", nil, "s3cret", true, ""},
		{"basic advertised", []string{"client_secret_post", "client_secret_basic"}, "s3cret", true, ""},
		{"post only", []string{"client_secret_post"}, "s3cret", false, ""},
		{"public client", []string{"client_secret_basic"}, "", false, ""},
		{"neither", []string{"private_key_jwt"}, "s3cret", false, "neither as client_secret_basic nor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, oauthtest.AuthServerOptions{ClientID: "pre:reg", ClientSecret: tt.secret, AuthMethods: tt.methods}, oauthtest.ResourceOptions{},
				func(o *Options) {
					o.Client = &ClientConfig{ClientID: "pre:reg", ClientSecret: tt.secret, Scopes: []string{"cfg"}}
				})
			err := f.a.Login(t.Context())
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Login error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := f.as.Last("/register"); ok {
				t.Error("registered a client although one is configured")
			}
			auth, _ := f.as.Last("/authorize")
			if auth.Form.Get("client_id") != "pre:reg" || auth.Form.Get("scope") != "cfg" {
				t.Errorf("authorization client_id %q scope %q", auth.Form.Get("client_id"), auth.Form.Get("scope"))
			}
			tok, _ := f.as.Last("/token")
			gotBasic := tok.BasicUser != ""
			if gotBasic != tt.wantBasic {
				t.Errorf("basic auth used = %v, want %v", gotBasic, tt.wantBasic)
			}
			if gotBasic && (tok.Form.Has("client_secret") || tok.BasicUser != "pre%3Areg") {
				t.Errorf("basic auth: user %q, body %v", tok.BasicUser, tok.Form)
			}
			if !gotBasic && tok.Form.Get("client_secret") != tt.secret {
				t.Errorf("client_secret in body %q, want %q", tok.Form.Get("client_secret"), tt.secret)
			}
			rec := f.record(t)
			if rec.Client != nil {
				t.Error("a configured client was stored")
			}
			if data, _ := os.ReadFile(f.store.Path("remote")); tt.secret != "" && strings.Contains(string(data), tt.secret) {
				t.Error("the configured secret was written to the token file")
			}
			f.mustGet(t)
		})
	}
}

func TestClientIDMetadataDocument(t *testing.T) {
	const doc = "https://steer.example/oauth/client.json"
	tests := []struct {
		name         string
		supported    bool
		metadataURL  string
		wantClientID string
	}{
		{"used where supported", true, doc, doc},
		{"unsupported: dynamic registration", false, doc, "dcr-"},
		{"no document hosted: dynamic registration", true, "", "dcr-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, oauthtest.AuthServerOptions{ClientIDMetadataDocuments: tt.supported}, oauthtest.ResourceOptions{},
				func(o *Options) { o.ClientMetadataURL = tt.metadataURL })
			if err := f.a.Login(t.Context()); err != nil {
				t.Fatal(err)
			}
			auth, _ := f.as.Last("/authorize")
			if !strings.HasPrefix(auth.Form.Get("client_id"), tt.wantClientID) {
				t.Errorf("client_id %q, want %q", auth.Form.Get("client_id"), tt.wantClientID)
			}
			_, registered := f.as.Last("/register")
			if registered != (tt.wantClientID == "dcr-") {
				t.Errorf("registered = %v", registered)
			}
		})
	}
}

func TestLoginRefusesStateMismatch(t *testing.T) {
	f := newFixture(t, oauthtest.AuthServerOptions{WrongState: true}, oauthtest.ResourceOptions{}, nil)
	err := f.a.Login(t.Context())
	if err == nil || !strings.Contains(err.Error(), "state does not match") {
		t.Fatalf("Login error = %v, want a state mismatch", err)
	}
	if _, ok := f.as.Last("/token"); ok {
		t.Error("the code of a mismatched state was redeemed")
	}
	if f.record(t).Token != nil {
		t.Error("a token was stored")
	}
}

func TestLoginWithoutRegistrationNamesConfig(t *testing.T) {
	f := newFixture(t, oauthtest.AuthServerOptions{NoRegistration: true}, oauthtest.ResourceOptions{}, nil)
	err := f.a.Login(t.Context())
	if err == nil || !strings.Contains(err.Error(), "oauth.clientId") {
		t.Fatalf("Login error = %v, want advice to configure oauth.clientId", err)
	}
}

func TestCheckIssuer(t *testing.T) {
	tests := []struct {
		iss, issuer string
		advertised  bool
		ok          bool
	}{
		{"", "https://as", false, true},
		{"https://as", "https://as", true, true},
		{"", "https://as", true, false},
		{"https://evil", "https://as", false, false},
	}
	for _, tt := range tests {
		if err := checkIssuer(tt.iss, tt.issuer, tt.advertised); (err == nil) != tt.ok {
			t.Errorf("checkIssuer(%q, %q, %v) = %v, want ok=%v", tt.iss, tt.issuer, tt.advertised, err, tt.ok)
		}
	}
}

func TestScopesSavedForNextLogin(t *testing.T) {
	f := newFixture(t, oauthtest.AuthServerOptions{}, oauthtest.ResourceOptions{ChallengeScope: []string{"repo"}}, func(o *Options) { o.AutoLogin = false })
	_, err := f.get(t)
	nl := asNeedsLogin(err)
	if nl == nil || !slices.Equal(nl.Scope, []string{"repo"}) || !strings.Contains(err.Error(), "steer mcp login remote") {
		t.Fatalf("error = %v, want a NeedsLoginError naming `steer mcp login remote` and scope repo", err)
	}
	if got := f.record(t).Scopes; !slices.Equal(got, []string{"repo"}) {
		t.Errorf("saved scopes %v, want [repo]", got)
	}
}
