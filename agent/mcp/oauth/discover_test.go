package oauth

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/mcp/oauth/oauthtest"
)

func TestCanonicalURL(t *testing.T) {
	tests := []struct{ in, want, wantErr string }{
		{"https://MCP.Example.com/mcp/", "https://mcp.example.com/mcp", ""},
		{"HTTPS://mcp.example.com", "https://mcp.example.com", ""},
		{"https://mcp.example.com:8443/", "https://mcp.example.com:8443", ""},
		{"https://mcp.example.com/mcp#frag", "https://mcp.example.com/mcp", ""},
		{"mcp.example.com", "", "not an absolute"},
		{"ftp://mcp.example.com", "", "not an absolute"},
	}
	for _, tt := range tests {
		got, err := canonicalURL(tt.in)
		if got != tt.want || (err == nil) != (tt.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("canonicalURL(%q) = %q, %v; want %q, %q", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestResourceMetadataCandidatesOrder(t *testing.T) {
	tests := []struct {
		name   string
		header string
		server string
		want   []metadataCandidate
	}{
		{"header, path, root", "https://m.example/meta", "https://m.example/public/mcp", []metadataCandidate{
			{"https://m.example/meta", []string{"https://m.example/public/mcp"}},
			{"https://m.example/.well-known/oauth-protected-resource/public/mcp", []string{"https://m.example/public/mcp"}},
			{"https://m.example/.well-known/oauth-protected-resource", []string{"https://m.example", "https://m.example/public/mcp"}},
		}},
		{"no header", "", "https://m.example/mcp", []metadataCandidate{
			{"https://m.example/.well-known/oauth-protected-resource/mcp", []string{"https://m.example/mcp"}},
			{"https://m.example/.well-known/oauth-protected-resource", []string{"https://m.example", "https://m.example/mcp"}},
		}},
		{"server at the root has no path URL", "", "https://m.example", []metadataCandidate{
			{"https://m.example/.well-known/oauth-protected-resource", []string{"https://m.example", "https://m.example"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := resourceMetadataCandidates(challenge{ResourceMetadata: tt.header}, tt.server)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("candidates = %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestDiscoveryOrder checks against live servers which well-known URLs a
// discovery asked for, in order, and that it stopped at the first that
// answered.
func TestDiscoveryOrder(t *testing.T) {
	const wk = "/.well-known/oauth-protected-resource"
	tests := []struct {
		name string
		ro   oauthtest.ResourceOptions
		want []string
	}{
		{"header first", oauthtest.ResourceOptions{MetadataAt: "custom"}, []string{"/meta/resource"}},
		{"path-based without header", oauthtest.ResourceOptions{NoHeaderMetadata: true}, []string{wk + "/mcp"}},
		{"root last", oauthtest.ResourceOptions{NoHeaderMetadata: true, MetadataAt: "root"}, []string{wk + "/mcp", wk}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, oauthtest.AuthServerOptions{}, tt.ro, nil)
			c, err := f.a.probe(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := discover(t.Context(), f.a.hc, c, f.a.url); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range f.res.Seen() {
				if p != "/mcp" {
					got = append(got, p)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("metadata requests %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAuthServerMetadataOrder(t *testing.T) {
	tests := []struct {
		name       string
		issuerPath string
		at         string
		want       []string
	}{
		{"root: OAuth", "", "oauth", []string{"/.well-known/oauth-authorization-server"}},
		{"root: OpenID after OAuth", "", "openid", []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"}},
		{"path: OAuth inserted", "/tenant1", "oauth", []string{"/.well-known/oauth-authorization-server/tenant1"}},
		{"path: OpenID inserted", "/tenant1", "openid", []string{"/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1"}},
		{"path: OpenID appended last", "/tenant1", "openid-append", []string{"/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1", "/tenant1/.well-known/openid-configuration"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, oauthtest.AuthServerOptions{IssuerPath: tt.issuerPath, MetadataAt: tt.at}, oauthtest.ResourceOptions{}, nil)
			d, err := discover(t.Context(), f.a.hc, challenge{ResourceMetadata: f.res.MetadataURL()}, f.a.url)
			if err != nil {
				t.Fatal(err)
			}
			if d.AS.Issuer != f.as.Issuer {
				t.Errorf("issuer %q, want %q", d.AS.Issuer, f.as.Issuer)
			}
			if got := f.as.Paths(); !slices.Equal(got, tt.want) {
				t.Errorf("metadata requests %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDiscoveryRefusals(t *testing.T) {
	tests := []struct {
		name    string
		aso     oauthtest.AuthServerOptions
		wantErr string
	}{
		{"no PKCE", oauthtest.AuthServerOptions{OmitPKCE: true}, "PKCE"},
		{"plain only", oauthtest.AuthServerOptions{PKCEMethods: []string{"plain"}}, "does not support PKCE with S256"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.aso, oauthtest.ResourceOptions{}, nil)
			err := f.a.Login(t.Context())
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Login error = %v, want one containing %q", err, tt.wantErr)
			}
			if f.browsed.get() != 0 {
				t.Error("the browser opened for a server that was refused")
			}
			if _, ok := f.as.Last("/authorize"); ok {
				t.Error("an authorization request reached the refused server")
			}
		})
	}
}

func TestResourceMetadataMustNameTheServer(t *testing.T) {
	f := newFixture(t, oauthtest.AuthServerOptions{}, oauthtest.ResourceOptions{Path: "/other"}, nil)
	// The metadata names .../other; an Authorizer for .../mcp on the same
	// host must not use it.
	a, err := New(Options{Server: "x", URL: strings.TrimSuffix(f.res.URL, "/other") + "/mcp", Store: f.store})
	if err != nil {
		t.Fatal(err)
	}
	_, err = discover(t.Context(), a.hc, challenge{ResourceMetadata: f.res.MetadataURL()}, a.url)
	if err == nil || !strings.Contains(err.Error(), "names resource") {
		t.Fatalf("discover error = %v, want a resource mismatch", err)
	}
}
