package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Token endpoint client authentication methods (RFC 7591 §2).
const (
	authNone   = "none"
	authBasic  = "client_secret_basic"
	authPost   = "client_secret_post"
	grantCode  = "authorization_code"
	grantRenew = "refresh_token"
)

// tokenClient is who asks the token endpoint, and how it authenticates.
type tokenClient struct {
	Endpoint   string
	ClientID   string
	Secret     string
	AuthMethod string
}

// tokenResponse is RFC 6749 §5.1's successful response.
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// requestToken POSTs form to the token endpoint with the client's
// authentication. Refresh needs the resource parameter too (MCP requires it
// in every token request, RFC 8707 §2.2), which golang.org/x/oauth2's
// refresh cannot send, so both grants go through here.
func requestToken(ctx context.Context, hc *http.Client, c tokenClient, form url.Values, now time.Time) (*tokenResponse, time.Time, error) {
	switch c.AuthMethod {
	case authPost:
		form.Set("client_id", c.ClientID)
		form.Set("client_secret", c.Secret)
	case authBasic:
	default:
		form.Set("client_id", c.ClientID)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, time.Time{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if c.AuthMethod == authBasic {
		// RFC 6749 §2.3.1: both parts are form-encoded before Basic.
		req.SetBasicAuth(url.QueryEscape(c.ClientID), url.QueryEscape(c.Secret))
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("token endpoint: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadataBytes))
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("token endpoint: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error       string `json:"error"`
			Description string `json:"error_description"`
		}
		if json.Unmarshal(body, &e) == nil && e.Error != "" {
			return nil, time.Time{}, &TokenError{Code: e.Error, Description: e.Description}
		}
		return nil, time.Time{}, fmt.Errorf("token endpoint: status %d", resp.StatusCode)
	}
	var tr tokenResponse
	if err := json.Unmarshal(body, &tr); err != nil {
		return nil, time.Time{}, fmt.Errorf("token endpoint: the response is not JSON: %v", err)
	}
	if tr.AccessToken == "" {
		return nil, time.Time{}, fmt.Errorf("token endpoint: the response has no access_token")
	}
	if tr.TokenType != "" && !strings.EqualFold(tr.TokenType, "bearer") {
		return nil, time.Time{}, fmt.Errorf("token endpoint: token_type %q, steer sends only Bearer tokens", tr.TokenType)
	}
	var expiry time.Time
	if tr.ExpiresIn > 0 {
		expiry = now.Add(time.Duration(tr.ExpiresIn) * time.Second)
	}
	return &tr, expiry, nil
}

// exchangeCode redeems an authorization code with its PKCE verifier.
func exchangeCode(ctx context.Context, hc *http.Client, c tokenClient, code, verifier, redirectURI, resource string, now time.Time) (*tokenResponse, time.Time, error) {
	form := url.Values{
		"grant_type":    {grantCode},
		"code":          {code},
		"code_verifier": {verifier},
		"redirect_uri":  {redirectURI},
		"resource":      {resource},
	}
	return requestToken(ctx, hc, c, form, now)
}

// refreshToken trades t's refresh token for a new access token. A response
// without a refresh token keeps the old one (RFC 6749 §6); a scope-less
// response keeps the old scope.
func refreshToken(ctx context.Context, hc *http.Client, c tokenClient, t *Token, now time.Time) (*Token, error) {
	form := url.Values{
		"grant_type":    {grantRenew},
		"refresh_token": {t.RefreshToken},
		"resource":      {t.Resource},
	}
	tr, expiry, err := requestToken(ctx, hc, c, form, now)
	if err != nil {
		return nil, err
	}
	nt := *t
	nt.AccessToken, nt.TokenType, nt.Expiry = tr.AccessToken, tr.TokenType, expiry
	if tr.RefreshToken != "" {
		nt.RefreshToken = tr.RefreshToken
	}
	if s := strings.Fields(tr.Scope); len(s) > 0 {
		nt.Scope = s
	}
	return &nt, nil
}
