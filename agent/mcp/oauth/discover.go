package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// discovery is what the discovery half of the flow learns about a server.
type discovery struct {
	Resource *oauthex.ProtectedResourceMetadata
	AS       *oauthex.AuthServerMeta
}

// canonicalURL is the server's canonical URI (MCP 2025-11-25 "Canonical
// Server URI", RFC 8707 §2): absolute, lowercase scheme and host, no
// fragment, no trailing slash. It is the resource sent to the
// authorization server and the key a stored token is bound to.
func canonicalURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("server URL %q: %v", raw, err)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", fmt.Errorf("server URL %q is not an absolute http(s) URL", raw)
	}
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u.String(), nil
}

// metadataCandidate is one place protected-resource metadata may be, with
// the resource identifiers RFC 9728 §3.3 lets that document name.
type metadataCandidate struct {
	URL       string
	Resources []string
}

// resourceMetadataCandidates lists, in the order MCP 2025-11-25 requires,
// where to look for server's protected-resource metadata: the challenge's
// resource_metadata, the path-based well-known URL (not for a server at the
// root), the root well-known URL. A document from the header or the path
// URL must name the server itself; the root document names the origin, or
// the server, as many servers that serve one document for one endpoint do.
func resourceMetadataCandidates(c challenge, server string) []metadataCandidate {
	u, err := url.Parse(server)
	if err != nil {
		return nil
	}
	origin := (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
	var out []metadataCandidate
	if c.ResourceMetadata != "" {
		out = append(out, metadataCandidate{URL: c.ResourceMetadata, Resources: []string{server}})
	}
	if p := strings.Trim(u.Path, "/"); p != "" {
		out = append(out, metadataCandidate{URL: origin + "/.well-known/oauth-protected-resource/" + p, Resources: []string{server}})
	}
	return append(out, metadataCandidate{URL: origin + "/.well-known/oauth-protected-resource", Resources: []string{origin, server}})
}

// discover finds the protected-resource metadata and then the metadata of
// its first authorization server (RFC 9728 §7.6 leaves the choice to the
// client; one is what MCP servers advertise). It refuses an authorization
// server without PKCE S256, as 2025-11-25 "Authorization Code Protection"
// requires.
func discover(ctx context.Context, hc *http.Client, c challenge, server string) (discovery, error) {
	var tried []string
	var prm *oauthex.ProtectedResourceMetadata
	for _, cand := range resourceMetadataCandidates(c, server) {
		m, err := fetchResourceMetadata(ctx, hc, cand)
		if err != nil {
			tried = append(tried, fmt.Sprintf("%s (%v)", cand.URL, err))
			continue
		}
		prm = m
		break
	}
	if prm == nil {
		return discovery{}, fmt.Errorf("no OAuth protected-resource metadata for %s: %s", server, strings.Join(tried, "; "))
	}
	if len(prm.AuthorizationServers) == 0 {
		return discovery{}, fmt.Errorf("the protected-resource metadata of %s names no authorization server", server)
	}
	issuer := prm.AuthorizationServers[0]
	as, err := auth.GetAuthServerMetadata(ctx, issuer, hc)
	if err != nil {
		return discovery{}, fmt.Errorf("authorization server %s: %w", issuer, err)
	}
	if as == nil {
		return discovery{}, fmt.Errorf("authorization server %s publishes neither OAuth (RFC 8414) nor OpenID Connect discovery metadata", issuer)
	}
	if !slices.Contains(as.CodeChallengeMethodsSupported, "S256") {
		return discovery{}, fmt.Errorf("authorization server %s does not support PKCE with S256 (code_challenge_methods_supported: %v); MCP forbids authorizing without it", issuer, as.CodeChallengeMethodsSupported)
	}
	if as.AuthorizationEndpoint == "" || as.TokenEndpoint == "" {
		return discovery{}, fmt.Errorf("authorization server %s metadata lacks authorization_endpoint or token_endpoint", issuer)
	}
	return discovery{Resource: prm, AS: as}, nil
}

// maxMetadataBytes bounds a metadata document, as the SDK bounds its own.
const maxMetadataBytes = 1 << 20

// fetchResourceMetadata GETs one candidate and checks it as RFC 9728 §3.2
// and §3.3 require: 200, JSON, and a resource the candidate allows. The SDK's
// oauthex.GetProtectedResourceMetadata checks only a single resource, which
// would refuse the common root document that names the endpoint, so the
// fetch is ours; the document type and the URL checks are the SDK's rules.
func fetchResourceMetadata(ctx context.Context, hc *http.Client, cand metadataCandidate) (*oauthex.ProtectedResourceMetadata, error) {
	if err := checkHTTPSOrLoopback(cand.URL); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, cand.URL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	if mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return nil, fmt.Errorf("content type %q, want application/json", resp.Header.Get("Content-Type"))
	}
	var m oauthex.ProtectedResourceMetadata
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxMetadataBytes)).Decode(&m); err != nil {
		return nil, fmt.Errorf("not protected-resource metadata: %v", err)
	}
	got, err := canonicalURL(m.Resource)
	if err != nil || !slices.Contains(cand.Resources, got) {
		return nil, fmt.Errorf("names resource %q, want %s", m.Resource, strings.Join(cand.Resources, " or "))
	}
	for _, as := range m.AuthorizationServers {
		if err := checkHTTPSOrLoopback(as); err != nil {
			return nil, fmt.Errorf("authorization server: %w", err)
		}
	}
	return &m, nil
}

// checkHTTPSOrLoopback enforces 2025-11-25 "Communication Security": the
// authorization server's endpoints are HTTPS; plain HTTP only on loopback,
// for development and tests.
func checkHTTPSOrLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	if u.Scheme == "https" || (u.Scheme == "http" && isLoopback(u.Hostname())) {
		return nil
	}
	return fmt.Errorf("%q is neither HTTPS nor a loopback address", raw)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// errNoRegistration says no client could be had; the message tells the user
// the one way left.
var errNoRegistration = errors.New("no client to use: the authorization server offers no dynamic client registration; configure oauth.clientId for this server")
