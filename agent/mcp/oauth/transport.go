package oauth

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
)

// Transport returns a RoundTripper that sends requests through base (the
// default transport if nil) with the server's bearer token, for an MCP HTTP
// client (streamable or SSE):
//
//   - every request carries "Authorization: Bearer <token>" once a token is
//     stored; a request that already has an Authorization header (a
//     configured header) passes untouched;
//   - an expired token is refreshed first, without a prompt;
//   - a 401 is answered by refreshing once (when a refresh token is
//     stored), then by an authorization: the browser flow if
//     Options.AutoLogin, else a *NeedsLoginError;
//   - a 403 with error="insufficient_scope" is a step-up: an authorization
//     for the union of the scopes held and asked for, likewise;
//   - one request starts at most three authorizations, then fails wrapping
//     ErrTooManyAuthorizations.
//
// Before any authorization the challenge's scope is saved to the store, so
// a later `steer mcp login` requests it. Requests are retried with their
// body, which is buffered when the request cannot replay it.
func (a *Authorizer) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &transport{a: a, base: base}
}

// HTTPClient is an http.Client over Transport(base).
func (a *Authorizer) HTTPClient(base http.RoundTripper) *http.Client {
	return &http.Client{Transport: a.Transport(base)}
}

type transport struct {
	a    *Authorizer
	base http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Authorization") != "" {
		return t.base.RoundTrip(req)
	}
	getBody, err := replayable(req)
	if err != nil {
		return nil, err
	}
	ctx := req.Context()
	authorizations, refreshed := 0, false
	for {
		tok, gen, err := t.a.current(ctx)
		if err != nil {
			return nil, err
		}
		r := req.Clone(ctx)
		if getBody != nil {
			if r.Body, err = getBody(); err != nil {
				return nil, err
			}
		}
		if tok != nil {
			r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		}
		resp, err := t.base.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		c := parseChallenge(resp.Header)
		stepUp := resp.StatusCode == http.StatusForbidden && c.insufficientScope()
		if resp.StatusCode != http.StatusUnauthorized && !stepUp {
			return resp, nil
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		if !stepUp && tok != nil && tok.RefreshToken != "" && !refreshed {
			refreshed = true
			err := t.a.refresh(ctx, gen)
			if err == nil {
				continue
			}
			if !isRefused(err) {
				return nil, err
			}
		}
		if err := t.a.reauthorize(ctx, c, tok, gen, stepUp, &authorizations); err != nil {
			return nil, err
		}
	}
}

// reauthorize gets a new token after the server refused sent (nil: none was
// sent) at generation gen. If another request or process already replaced
// it, the caller just retries.
func (a *Authorizer) reauthorize(ctx context.Context, c challenge, sent *Token, gen uint64, stepUp bool, count *int) error {
	a.flow.Lock()
	defer a.flow.Unlock()
	if a.generation() != gen {
		return nil
	}
	rec, err := a.opts.Store.Load(a.opts.Server)
	if err != nil {
		return err
	}
	a.mu.Lock()
	known := a.tok
	a.mu.Unlock()
	if rec.ServerURL == a.url && rec.Token != nil && (known == nil || rec.Token.AccessToken != known.AccessToken) {
		// `steer mcp login` in another process signed in meanwhile.
		a.setToken(rec.Token)
		return nil
	}
	if len(c.Scope) > 0 {
		if err := a.opts.Store.update(a.opts.Server, func(r *Record) {
			if r.ServerURL != a.url {
				*r = Record{ServerURL: a.url}
			}
			r.Scopes = union(r.Scopes, c.Scope)
		}); err != nil {
			return err
		}
	}
	if !a.opts.AutoLogin {
		return &NeedsLoginError{Server: a.opts.Server, Scope: c.Scope, Reason: loginReason(sent, stepUp)}
	}
	if *count >= maxAuthorizations {
		return fmt.Errorf("MCP server %q still refuses after %d authorizations (%s): %w", a.opts.Server, *count, loginReason(sent, stepUp), ErrTooManyAuthorizations)
	}
	*count++
	return a.authorize(ctx, c)
}

func loginReason(sent *Token, stepUp bool) string {
	switch {
	case stepUp:
		return "it asks for more scope"
	case sent == nil:
		return "no token yet"
	}
	return "it refused the token"
}

// replayable returns how to get req's body again for a retry, buffering it
// when the request has no GetBody.
func replayable(req *http.Request) (func() (io.ReadCloser, error), error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	if req.GetBody != nil {
		return req.GetBody, nil
	}
	data, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }, nil
}
