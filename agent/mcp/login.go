package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/steer-tui/steer/agent/mcp/oauth"
)

// authorizer is the server's OAuth state, made on first use and kept across
// reconnects; nil when the server is not an HTTP one or no token store is
// configured (Options.OAuthStore).
func (s *server) authorizer(url string) (*oauth.Authorizer, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.auth != nil || s.cfg.Transport == TransportStdio || s.o.OAuthStore == nil {
		return s.auth, nil
	}
	a, err := oauth.New(oauth.Options{Server: s.cfg.Name, URL: url, Store: s.o.OAuthStore, Client: s.cfg.OAuth,
		AutoLogin: s.o.AutoLogin, Logger: s.o.Logger})
	if err != nil {
		return nil, err
	}
	s.auth = a
	return a, nil
}

// clientFor is the HTTP client of one connection: the configured headers
// over the server's OAuth transport (when it has one) over the base
// transport.
func (s *server) clientFor(c expanded, l *link) (*http.Client, error) {
	base := baseTransport(s.o, c.Name)
	a, err := s.authorizer(c.URL)
	if err != nil {
		return nil, err
	}
	if a != nil {
		base = a.Transport(base)
	}
	return &http.Client{Transport: &headerTransport{base: base, headers: c.Headers, watch: l.auth, session: l.session, init: l.init}}, nil
}

// Login runs the OAuth sign-in of the named HTTP server (the browser flow;
// `steer mcp login NAME`), stores its token, and reconnects it if it runs.
func (m *Manager) Login(ctx context.Context, name string) error {
	s, err := m.server(name)
	if err != nil {
		return err
	}
	if s.cfg.Transport == TransportStdio {
		return fmt.Errorf("mcp server %s runs over stdio: it has no login", name)
	}
	if m.o.OAuthStore == nil {
		return errors.New("no state directory to keep the token in")
	}
	x, err := expand(s.cfg, m.o.getenv())
	if err != nil {
		return fmt.Errorf("mcp server %s: %w", name, err)
	}
	a, err := s.authorizer(x.URL)
	if err != nil {
		return err
	}
	if err := a.Login(ctx); err != nil {
		return err
	}
	if st := s.status().State; st == StateFailed || st == StateNeedsLogin || st == StateReady {
		s.restart(m.ctx)
	}
	return nil
}

// needsLogin is err when it says a login is needed (oauth's
// *NeedsLoginError), for the status line.
func needsLoginError(err error) (*oauth.NeedsLoginError, bool) {
	var nl *oauth.NeedsLoginError
	ok := errors.As(err, &nl)
	return nl, ok
}
