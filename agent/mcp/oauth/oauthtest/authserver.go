package oauthtest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
)

// AuthServerOptions shape the authorization server. The zero value is a
// well-behaved server: RFC 8414 metadata at the root, PKCE S256, dynamic
// registration, refresh tokens.
type AuthServerOptions struct {
	// IssuerPath gives the issuer a path ("/tenant1").
	IssuerPath string
	// MetadataAt is the one discovery URL form served: "oauth" (default,
	// RFC 8414 with path insertion), "openid" (OpenID with path
	// insertion) or "openid-append" (issuer path + /.well-known/...).
	MetadataAt string
	// PKCEMethods replaces code_challenge_methods_supported; OmitPKCE
	// leaves the field out.
	PKCEMethods []string
	OmitPKCE    bool
	// AuthMethods is token_endpoint_auth_methods_supported.
	AuthMethods []string
	// NoRegistration hides the registration endpoint.
	NoRegistration bool
	// ClientIDMetadataDocuments advertises client ID metadata documents.
	ClientIDMetadataDocuments bool
	// ClientID and ClientSecret are a pre-registered client.
	ClientID, ClientSecret string
	// ExpiresIn is the access tokens' lifetime in seconds sent; 0 sends none.
	ExpiresIn int
	// NoRefresh issues no refresh tokens.
	NoRefresh bool
	// WrongState redirects back with a state other than the request's.
	WrongState bool
	// GrantScope, if set, is the scope granted instead of the one asked.
	GrantScope func(asked []string) []string
}

// Request is one request the server received.
type Request struct {
	Method, Path string
	Form         url.Values
	// BasicUser is the client id sent with HTTP Basic, "" if none.
	BasicUser, BasicPassword string
}

// AuthServer is the running authorization server.
type AuthServer struct {
	// URL is the server's origin; Issuer is URL + IssuerPath.
	URL, Issuer string
	opts        AuthServerOptions

	mu      sync.Mutex
	log     []Request
	clients map[string]registered
	codes   map[string]grant
	access  map[string]grant
	refresh map[string]grant
	serial  int
}

type registered struct {
	secret   string
	redirect []string // nil: any loopback redirect
}

type grant struct {
	clientID, redirect, challenge, resource string
	scope                                   []string
}

// NewAuthServer starts the server; it stops when the test ends.
func NewAuthServer(t testing.TB, opts AuthServerOptions) *AuthServer {
	t.Helper()
	s := &AuthServer{opts: opts, clients: map[string]registered{}, codes: map[string]grant{}, access: map[string]grant{}, refresh: map[string]grant{}}
	if opts.ClientID != "" {
		s.clients[opts.ClientID] = registered{secret: opts.ClientSecret}
	}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	s.Issuer = srv.URL + opts.IssuerPath
	return s
}

// Requests returns what the server received, in order.
func (s *AuthServer) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.log)
}

// Paths returns the paths of Requests, in order.
func (s *AuthServer) Paths() []string {
	var out []string
	for _, r := range s.Requests() {
		out = append(out, r.Path)
	}
	return out
}

// Last returns the last request to path, and whether there was one.
func (s *AuthServer) Last(path string) (Request, bool) {
	reqs := s.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if reqs[i].Path == path {
			return reqs[i], true
		}
	}
	return Request{}, false
}

// ExpireAccessTokens makes every access token issued so far invalid, as
// their expiry would; refresh tokens stay valid.
func (s *AuthServer) ExpireAccessTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.access)
}

// RevokeRefreshTokens makes every refresh token issued so far invalid.
func (s *AuthServer) RevokeRefreshTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.refresh)
}

// Introspect returns the resource and scope an access token was issued
// for, and whether it is valid.
func (s *AuthServer) Introspect(token string) (resource string, scope []string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.access[token]
	return g.resource, g.scope, ok
}

func (s *AuthServer) metadataPath() string {
	p := strings.TrimSuffix(s.opts.IssuerPath, "/")
	switch s.opts.MetadataAt {
	case "openid":
		return "/.well-known/openid-configuration" + p
	case "openid-append":
		return p + "/.well-known/openid-configuration"
	}
	return "/.well-known/oauth-authorization-server" + p
}

func (s *AuthServer) serve(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	rec := Request{Method: r.Method, Path: r.URL.Path, Form: r.Form}
	rec.BasicUser, rec.BasicPassword, _ = r.BasicAuth()
	s.mu.Lock()
	s.log = append(s.log, rec)
	s.mu.Unlock()
	switch r.URL.Path {
	case s.metadataPath():
		s.serveMetadata(w)
	case "/authorize":
		s.authorize(w, r)
	case "/token":
		s.token(w, r, rec)
	case "/register":
		if s.opts.NoRegistration {
			http.NotFound(w, r)
			return
		}
		s.register(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (s *AuthServer) serveMetadata(w http.ResponseWriter) {
	m := map[string]any{
		"issuer":                   s.Issuer,
		"authorization_endpoint":   s.URL + "/authorize",
		"token_endpoint":           s.URL + "/token",
		"response_types_supported": []string{"code"},
		"grant_types_supported":    []string{"authorization_code", "refresh_token"},
	}
	if !s.opts.OmitPKCE {
		methods := s.opts.PKCEMethods
		if methods == nil {
			methods = []string{"S256"}
		}
		m["code_challenge_methods_supported"] = methods
	}
	if s.opts.AuthMethods != nil {
		m["token_endpoint_auth_methods_supported"] = s.opts.AuthMethods
	}
	if !s.opts.NoRegistration {
		m["registration_endpoint"] = s.URL + "/register"
	}
	if s.opts.ClientIDMetadataDocuments {
		m["client_id_metadata_document_supported"] = true
	}
	writeJSON(w, http.StatusOK, m)
}

func (s *AuthServer) register(w http.ResponseWriter, r *http.Request) {
	var meta struct {
		RedirectURIs []string `json:"redirect_uris"`
		AuthMethod   string   `json:"token_endpoint_auth_method"`
	}
	if err := json.NewDecoder(r.Body).Decode(&meta); err != nil || len(meta.RedirectURIs) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_client_metadata"})
		return
	}
	s.mu.Lock()
	s.serial++
	id := fmt.Sprintf("dcr-%d", s.serial)
	s.clients[id] = registered{redirect: meta.RedirectURIs}
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{"client_id": id, "redirect_uris": meta.RedirectURIs, "token_endpoint_auth_method": "none"})
}

// authorize approves at once and redirects back with a code, after
// checking what OAuth 2.1 and MCP require of the request.
func (s *AuthServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	clientID, redirect := q.Get("client_id"), q.Get("redirect_uri")
	s.mu.Lock()
	c, known := s.clients[clientID]
	s.mu.Unlock()
	if !known && !(s.opts.ClientIDMetadataDocuments && strings.HasPrefix(clientID, "https://")) {
		http.Error(w, "unknown client", http.StatusBadRequest)
		return
	}
	if c.redirect != nil && !slices.Contains(c.redirect, redirect) {
		http.Error(w, "redirect_uri not registered", http.StatusBadRequest)
		return
	}
	switch {
	case q.Get("response_type") != "code":
		http.Error(w, "response_type must be code", http.StatusBadRequest)
	case q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "":
		http.Error(w, "PKCE S256 required", http.StatusBadRequest)
	case q.Get("resource") == "":
		http.Error(w, "resource required", http.StatusBadRequest)
	case q.Get("state") == "":
		http.Error(w, "state required", http.StatusBadRequest)
	default:
		scope := strings.Fields(q.Get("scope"))
		if s.opts.GrantScope != nil {
			scope = s.opts.GrantScope(scope)
		}
		s.mu.Lock()
		s.serial++
		code := fmt.Sprintf("code-%d", s.serial)
		s.codes[code] = grant{clientID: clientID, redirect: redirect, challenge: q.Get("code_challenge"), resource: q.Get("resource"), scope: scope}
		s.mu.Unlock()
		state := q.Get("state")
		if s.opts.WrongState {
			state += "-forged"
		}
		back, _ := url.Parse(redirect)
		v := url.Values{"code": {code}, "state": {state}}
		back.RawQuery = v.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	}
}

func (s *AuthServer) token(w http.ResponseWriter, r *http.Request, rec Request) {
	clientID := r.Form.Get("client_id")
	secret := r.Form.Get("client_secret")
	if rec.BasicUser != "" {
		u, _ := url.QueryUnescape(rec.BasicUser)
		p, _ := url.QueryUnescape(rec.BasicPassword)
		clientID, secret = u, p
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.clients[clientID]; ok && c.secret != secret {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client"})
		return
	}
	var g grant
	switch r.Form.Get("grant_type") {
	case "authorization_code":
		var ok bool
		g, ok = s.codes[r.Form.Get("code")]
		delete(s.codes, r.Form.Get("code"))
		sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
		if !ok || g.clientID != clientID || g.redirect != r.Form.Get("redirect_uri") ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != g.challenge || g.resource != r.Form.Get("resource") {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
	case "refresh_token":
		var ok bool
		g, ok = s.refresh[r.Form.Get("refresh_token")]
		delete(s.refresh, r.Form.Get("refresh_token"))
		if !ok || g.clientID != clientID || g.resource != r.Form.Get("resource") {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "refresh token revoked"})
			return
		}
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	s.serial++
	access := fmt.Sprintf("at-%d", s.serial)
	s.access[access] = g
	resp := map[string]any{"access_token": access, "token_type": "Bearer", "scope": strings.Join(g.scope, " ")}
	if s.opts.ExpiresIn > 0 {
		resp["expires_in"] = s.opts.ExpiresIn
	}
	if !s.opts.NoRefresh {
		rt := fmt.Sprintf("rt-%d", s.serial)
		s.refresh[rt] = g
		resp["refresh_token"] = rt
	}
	writeJSON(w, http.StatusOK, resp)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
