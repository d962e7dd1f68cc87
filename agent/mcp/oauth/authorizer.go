package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// Options configure an Authorizer. Server, URL and Store are required; the
// zero value of every other field is the default.
type Options struct {
	// Server is the configured server name: the store key and the NAME in
	// `steer mcp login NAME`.
	Server string
	// URL is the server's MCP endpoint.
	URL string
	// Store keeps the tokens and the registered client.
	Store *Store
	// Client is the configured OAuth client, nil to register dynamically.
	Client *ClientConfig
	// ClientMetadataURL is the HTTPS URL of a client ID metadata document
	// for steer, used where the authorization server supports them. steer
	// hosts none today, so it is empty and dynamic registration is used.
	ClientMetadataURL string
	// ClientName is the client_name registered dynamically; "steer" if empty.
	ClientName string
	// AutoLogin lets a request that meets a 401 or an insufficient_scope
	// 403 run the browser flow by itself (the TUI, or $BROWSER set);
	// without it such a request fails with *NeedsLoginError.
	AutoLogin bool
	// OpenBrowser sends the user to the authorization URL;
	// SystemBrowser(os.Getenv) if nil.
	OpenBrowser OpenBrowserFunc
	// OnAuthURL, if set, is told the authorization URL before the browser
	// opens, so a UI can show it for copying.
	OnAuthURL func(url string)
	// HTTPClient makes the discovery, registration and token requests;
	// http.DefaultClient if nil. The MCP requests use the base transport
	// given to Transport instead.
	HTTPClient *http.Client
	// Logger receives what the flow did (URLs tried, how the client was
	// obtained), never a token, code or secret; nothing if nil.
	Logger *slog.Logger
	// Now is the clock for token expiry; time.Now if nil.
	Now func() time.Time
}

// loginTimeout bounds one browser flow started without a deadline: a
// sign-in abandoned in the browser must not hold a request forever.
const loginTimeout = 5 * time.Minute

// Authorizer holds one server's OAuth state: the current token, its refresh
// and the browser flow. It is safe for concurrent use; requests share one
// token and at most one refresh or authorization runs at a time.
type Authorizer struct {
	opts   Options
	url    string // canonical server URL, the resource
	hc     *http.Client
	log    *slog.Logger
	now    func() time.Time
	browse OpenBrowserFunc

	// flow serialises refreshes and authorizations.
	flow sync.Mutex

	// mu guards the fields below it.
	mu     sync.Mutex
	loaded bool
	tok    *Token
	// gen counts token changes, so a request that waited for another's
	// refresh or authorization retries with its result instead of
	// starting one more.
	gen uint64
}

// New checks opts and returns the server's Authorizer. It reads nothing
// yet: the store is read on first use.
func New(opts Options) (*Authorizer, error) {
	if opts.Server == "" {
		return nil, errors.New("oauth: Options.Server is empty")
	}
	if opts.Store == nil {
		return nil, errors.New("oauth: Options.Store is nil")
	}
	u, err := canonicalURL(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("MCP server %q: %w", opts.Server, err)
	}
	a := &Authorizer{opts: opts, url: u, hc: opts.HTTPClient, log: opts.Logger, now: opts.Now, browse: opts.OpenBrowser}
	if a.hc == nil {
		a.hc = http.DefaultClient
	}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	a.log = a.log.With("mcp", opts.Server)
	if a.now == nil {
		a.now = time.Now
	}
	if a.browse == nil {
		a.browse = SystemBrowser(os.Getenv)
	}
	if a.opts.ClientName == "" {
		a.opts.ClientName = "steer"
	}
	return a, nil
}

// Login runs the whole browser flow now, whatever token is stored: it asks
// the server (without a token) for its challenge, discovers the
// authorization server, registers if needed, opens the browser and stores
// the token. The scopes requested include those saved from the last
// challenge. Without a deadline on ctx it gives up after five minutes.
func (a *Authorizer) Login(ctx context.Context) error {
	c, err := a.probe(ctx)
	if err != nil {
		return err
	}
	a.flow.Lock()
	defer a.flow.Unlock()
	return a.authorize(ctx, c)
}

// probe sends an unauthenticated JSON-RPC ping: an MCP server that wants a
// token answers 401 with its challenge; any other answer leaves discovery
// to the well-known URLs.
func (a *Authorizer) probe(ctx context.Context) (challenge, error) {
	body := `{"jsonrpc":"2.0","id":"steer-login","method":"ping"}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.opts.URL, strings.NewReader(body))
	if err != nil {
		return challenge{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := a.hc.Do(req)
	if err != nil {
		return challenge{}, fmt.Errorf("MCP server %q: %w", a.opts.Server, err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		a.log.Debug("oauth probe got no challenge", "status", resp.StatusCode)
		return challenge{}, nil
	}
	return parseChallenge(resp.Header), nil
}

// current returns the token to send and its generation, loading the store
// on first use and refreshing an expired token first. A nil token means
// none is usable; the request goes out bare and its 401 starts the login.
func (a *Authorizer) current(ctx context.Context) (*Token, uint64, error) {
	a.mu.Lock()
	if !a.loaded {
		rec, err := a.opts.Store.Load(a.opts.Server)
		if err != nil {
			a.mu.Unlock()
			return nil, 0, err
		}
		if rec.ServerURL == a.url {
			a.tok = rec.Token
		}
		a.loaded = true
	}
	tok, gen := a.tok, a.gen
	a.mu.Unlock()
	if tok == nil || !tok.expired(a.now()) {
		return tok, gen, nil
	}
	if tok.RefreshToken == "" {
		return nil, gen, nil
	}
	if err := a.refresh(ctx, gen); err != nil && !isRefused(err) {
		return nil, gen, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.tok, a.gen, nil
}

// setToken installs a new token and bumps the generation.
func (a *Authorizer) setToken(t *Token) {
	a.mu.Lock()
	a.tok = t
	a.gen++
	a.mu.Unlock()
}

func (a *Authorizer) generation() uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.gen
}

// errRefused marks a refresh the authorization server refused: only a new
// login helps.
var errRefused = errors.New("refresh refused")

func isRefused(err error) bool { return errors.Is(err, errRefused) }

// refresh renews the token seen at generation gen, unless another request
// did meanwhile. A refusal by the authorization server drops the token
// (store included: the refresh token is dead) and returns errRefused; a
// network failure changes nothing and is returned as is.
func (a *Authorizer) refresh(ctx context.Context, gen uint64) error {
	a.flow.Lock()
	defer a.flow.Unlock()
	if a.generation() != gen {
		return nil
	}
	a.mu.Lock()
	tok := a.tok
	a.mu.Unlock()
	if tok == nil || tok.RefreshToken == "" {
		return errRefused
	}
	rec, err := a.opts.Store.Load(a.opts.Server)
	if err != nil {
		return err
	}
	nt, err := refreshToken(ctx, a.hc, a.refreshClient(rec, tok), tok, a.now())
	var te *TokenError
	if errors.As(err, &te) {
		a.log.Info("oauth refresh refused", "error", te.Code)
		if err := a.opts.Store.update(a.opts.Server, func(r *Record) { r.Token = nil }); err != nil {
			return err
		}
		a.setToken(nil)
		return fmt.Errorf("%w: %v", errRefused, err)
	}
	if err != nil {
		return err
	}
	if err := a.opts.Store.update(a.opts.Server, func(r *Record) { r.ServerURL, r.Token = a.url, nt }); err != nil {
		return err
	}
	a.log.Debug("oauth token refreshed")
	a.setToken(nt)
	return nil
}

// refreshClient is the client that obtained tok, with its secret from the
// configuration or the stored registration.
func (a *Authorizer) refreshClient(rec Record, tok *Token) tokenClient {
	c := tokenClient{Endpoint: tok.TokenEndpoint, ClientID: tok.ClientID, AuthMethod: tok.AuthMethod}
	switch {
	case a.opts.Client != nil && a.opts.Client.ClientID == tok.ClientID:
		c.Secret = a.opts.Client.ClientSecret
	case rec.Client != nil && rec.Client.ClientID == tok.ClientID:
		c.Secret = rec.Client.ClientSecret
	}
	return c
}
