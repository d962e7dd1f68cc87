package oauthtest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

// ResourceOptions shape the protected resource. The zero value serves its
// metadata at the path-based well-known URL and names it in the 401's
// WWW-Authenticate header.
type ResourceOptions struct {
	// AS issues the tokens the resource accepts.
	AS *AuthServer
	// Path is the MCP endpoint's path, "/mcp" if empty.
	Path string
	// MetadataAt is where the metadata is served: "path" (default),
	// "root", or "custom" (only at /meta/resource, which then only the
	// header names).
	MetadataAt string
	// NoHeaderMetadata leaves resource_metadata out of the challenge.
	NoHeaderMetadata bool
	// ChallengeScope is the 401 challenge's scope parameter.
	ChallengeScope []string
	// ScopesSupported is the metadata's scopes_supported.
	ScopesSupported []string
	// Require returns the scopes a request needs; a token lacking one
	// gets a 403 insufficient_scope naming them.
	Require func(*http.Request) []string
	// Handler serves authorized requests; a 200 "ok" if nil.
	Handler http.Handler
}

// Resource is the running protected resource.
type Resource struct {
	// URL is the MCP endpoint.
	URL  string
	opts ResourceOptions
	srv  *httptest.Server

	mu   sync.Mutex
	seen []string
}

// NewResource starts the resource; it stops when the test ends.
func NewResource(t testing.TB, opts ResourceOptions) *Resource {
	t.Helper()
	if opts.Path == "" {
		opts.Path = "/mcp"
	}
	if opts.Handler == nil {
		opts.Handler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") })
	}
	r := &Resource{opts: opts}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	r.URL = r.srv.URL + opts.Path
	return r
}

// MetadataURL is where the resource serves its metadata.
func (r *Resource) MetadataURL() string { return r.srv.URL + r.metadataPath() }

// Seen returns the request paths the resource received, in order.
func (r *Resource) Seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.seen)
}

func (r *Resource) metadataPath() string {
	switch r.opts.MetadataAt {
	case "root":
		return "/.well-known/oauth-protected-resource"
	case "custom":
		return "/meta/resource"
	}
	return "/.well-known/oauth-protected-resource" + r.opts.Path
}

func (r *Resource) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.seen = append(r.seen, req.URL.Path)
	r.mu.Unlock()
	switch req.URL.Path {
	case r.metadataPath():
		resource := r.URL
		if r.opts.MetadataAt == "root" {
			resource = r.srv.URL
		}
		m := map[string]any{"resource": resource, "authorization_servers": []string{r.opts.AS.Issuer}}
		if r.opts.ScopesSupported != nil {
			m["scopes_supported"] = r.opts.ScopesSupported
		}
		writeJSON(w, http.StatusOK, m)
	case r.opts.Path:
		r.protect(w, req)
	default:
		http.NotFound(w, req)
	}
}

// protect checks the bearer token as an MCP server must: issued by its
// authorization server, for this resource, with the scope needed.
func (r *Resource) protect(w http.ResponseWriter, req *http.Request) {
	tok, ok := strings.CutPrefix(req.Header.Get("Authorization"), "Bearer ")
	resource, scope, valid := r.opts.AS.Introspect(tok)
	if !ok || !valid || resource != r.URL {
		w.Header().Set("WWW-Authenticate", r.challenge("", r.opts.ChallengeScope))
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	if r.opts.Require != nil {
		need := r.opts.Require(req)
		for _, s := range need {
			if !slices.Contains(scope, s) {
				w.Header().Set("WWW-Authenticate", r.challenge("insufficient_scope", need))
				http.Error(w, "forbidden", http.StatusForbidden)
				return
			}
		}
	}
	r.opts.Handler.ServeHTTP(w, req)
}

func (r *Resource) challenge(errCode string, scope []string) string {
	var params []string
	if errCode != "" {
		params = append(params, fmt.Sprintf("error=%q", errCode))
	}
	if len(scope) > 0 {
		params = append(params, fmt.Sprintf("scope=%q", strings.Join(scope, " ")))
	}
	if !r.opts.NoHeaderMetadata {
		params = append(params, fmt.Sprintf("resource_metadata=%q", r.MetadataURL()))
	}
	if len(params) == 0 {
		return "Bearer"
	}
	return "Bearer " + strings.Join(params, ", ")
}
