package oauth

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/oauth2"
)

// authorize runs one authorization code flow with PKCE for challenge c and
// installs the token. The caller holds a.flow.
//
// The steps follow 2025-11-25 "Authorization Flow Steps": discovery, client
// registration, then the browser: S256 challenge, a fresh state, the
// resource parameter, the selected scopes, a redirect to a loopback
// listener; then the code is redeemed with the verifier and the resource.
func (a *Authorizer) authorize(ctx context.Context, c challenge) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, loginTimeout)
		defer cancel()
	}
	d, err := discover(ctx, a.hc, c, a.url)
	if err != nil {
		return fmt.Errorf("MCP server %q: %w", a.opts.Server, err)
	}
	a.log.Debug("oauth discovered", "issuer", d.AS.Issuer, "scopes_supported", d.Resource.ScopesSupported)
	rec, err := a.opts.Store.Load(a.opts.Server)
	if err != nil {
		return err
	}
	if rec.ServerURL != a.url {
		rec = Record{ServerURL: a.url}
	}
	var saved []string
	if rec.Token != nil {
		saved = rec.Token.Scope
	}
	var configured []string
	if a.opts.Client != nil {
		configured = a.opts.Client.Scopes
	}
	scopes := selectScopes(c.Scope, configured, d.Resource.ScopesSupported, union(rec.Scopes, saved))

	state := rand.Text()
	cb, err := a.listen(rec.Client, state)
	if err != nil {
		return err
	}
	defer cb.close()
	cl, err := resolveClient(ctx, a.hc, d.AS, a.opts.Client, a.opts.ClientMetadataURL, a.opts.ClientName, rec.Client, cb.redirectURI, a.now())
	if err != nil {
		return fmt.Errorf("MCP server %q: %w", a.opts.Server, err)
	}
	a.log.Debug("oauth client", "via", cl.Via, "auth_method", cl.AuthMethod)
	if cl.Registered != nil {
		// Kept even if the sign-in fails, so the next attempt does not
		// register yet another client.
		rec.Client = cl.Registered
		if err := a.opts.Store.Save(a.opts.Server, rec); err != nil {
			return err
		}
	}

	verifier := oauth2.GenerateVerifier()
	conf := oauth2.Config{
		ClientID:    cl.ClientID,
		Endpoint:    oauth2.Endpoint{AuthURL: d.AS.AuthorizationEndpoint},
		RedirectURL: cb.redirectURI,
		Scopes:      scopes,
	}
	authURL := conf.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", a.url))
	if a.opts.OnAuthURL != nil {
		a.opts.OnAuthURL(authURL)
	}
	browser := make(chan error, 1)
	go func() { browser <- a.browse(ctx, authURL) }()
	res, err := cb.wait(ctx, browser)
	if err != nil {
		return fmt.Errorf("MCP server %q: sign-in failed: %w", a.opts.Server, err)
	}
	if err := checkIssuer(res.Iss, d.AS.Issuer, d.AS.AuthorizationResponseIssParameterSupported); err != nil {
		return fmt.Errorf("MCP server %q: %w", a.opts.Server, err)
	}
	tr, expiry, err := exchangeCode(ctx, a.hc, cl.tokenClient, res.Code, verifier, cb.redirectURI, a.url, a.now())
	if err != nil {
		return fmt.Errorf("MCP server %q: redeeming the authorization code: %w", a.opts.Server, err)
	}
	granted := strings.Fields(tr.Scope)
	if len(granted) == 0 {
		// RFC 6749 §5.1: an omitted scope means the one requested.
		granted = scopes
	}
	tok := &Token{
		AccessToken: tr.AccessToken, TokenType: tr.TokenType, RefreshToken: tr.RefreshToken,
		Expiry: expiry, Scope: granted, Issuer: d.AS.Issuer, TokenEndpoint: d.AS.TokenEndpoint,
		ClientID: cl.ClientID, AuthMethod: cl.AuthMethod, Resource: a.url,
	}
	rec.Token, rec.Scopes = tok, scopes
	if err := a.opts.Store.Save(a.opts.Server, rec); err != nil {
		return err
	}
	a.log.Info("oauth signed in", "issuer", d.AS.Issuer, "client", cl.Via, "scope", strings.Join(granted, " "))
	a.setToken(tok)
	return nil
}

// listen opens the loopback listener, on the port of the stored
// registration's redirect URI when it is free, so that client stays valid;
// otherwise on a random port (and the client is registered anew).
func (a *Authorizer) listen(stored *RegisteredClient, state string) (*callback, error) {
	if stored != nil {
		if u, err := url.Parse(stored.RedirectURI); err == nil && u.Hostname() == "127.0.0.1" && u.Path == callbackPath {
			if port, err := strconv.Atoi(u.Port()); err == nil {
				if cb, err := listenCallback(port, state, a.opts.Server); err == nil {
					return cb, nil
				}
			}
		}
	}
	return listenCallback(0, state, a.opts.Server)
}

// checkIssuer applies RFC 9207: a server that advertises the iss parameter
// must send its issuer; an iss that is sent must match.
func checkIssuer(iss, issuer string, advertised bool) error {
	switch {
	case iss == "" && advertised:
		return fmt.Errorf("the authorization response lacks the iss parameter its server advertises")
	case iss != "" && iss != issuer:
		return fmt.Errorf("the authorization response comes from issuer %q, want %q", iss, issuer)
	}
	return nil
}
