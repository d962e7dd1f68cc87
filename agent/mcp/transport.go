package mcp

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/steer-tui/steer/agent/childproc"
)

// terminateWait is how long closing a stdio server waits for it to exit
// after its stdin closed before the SDK sends it SIGTERM, and after that
// before SIGKILL, as the specification's shutdown has it; well within
// closeGrace, after which its process group is killed in any case.
const terminateWait = closeGrace * 2 / 5

// link is one connection's transport with what ending it needs: the child
// (stdio) whose group is killed, its stderr, and whether an HTTP server
// answered 401 (it needs a login).
type link struct {
	transport sdk.Transport
	kind      Transport // what it speaks: an http server may have fallen back to sse
	stderr    *childproc.Tail
	auth      *authWatch
	session   *sessionWatch // a streamable-HTTP link's (session.go)
	init      *initGuard    // initguard.go

	mu  sync.Mutex
	pid int // the stdio child's, once started; its process group's id
}

// kill ends a stdio server's whole process group; a no-op before it
// started and for HTTP servers.
func (l *link) kill() {
	l.mu.Lock()
	pid := l.pid
	l.mu.Unlock()
	if pid > 0 {
		childproc.KillGroup(pid)
	}
}

// started records the child's pid once the SDK started it.
type startedTransport struct {
	inner *sdk.CommandTransport
	l     *link
}

func (t startedTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.l.mu.Lock()
	t.l.pid = t.inner.Command.Process.Pid
	t.l.mu.Unlock()
	return guardedConn{Connection: conn, g: t.l.init}, nil
}

// newLink makes the transport of one connection to s, configured as c.
func (s *server) newLink(c expanded) (*link, error) {
	o := s.o
	switch c.Transport {
	case TransportHTTP, TransportSSE:
		l := &link{kind: c.Transport, auth: &authWatch{}, init: &initGuard{}}
		if c.Transport == TransportHTTP {
			l.session = &sessionWatch{onGone: func() { s.endSession(l) }}
		}
		client, err := s.clientFor(c, l)
		if err != nil {
			return nil, err
		}
		if c.Transport == TransportSSE {
			l.transport = sseTransport{inner: &sdk.SSEClientTransport{Endpoint: c.URL, HTTPClient: client}}
		} else {
			l.transport = &sdk.StreamableClientTransport{Endpoint: c.URL, HTTPClient: client}
		}
		return l, nil
	}
	cmd := exec.Command(c.Command, c.Args...)
	cmd.Dir = o.Workspace
	if c.Dir != "" {
		cmd.Dir = c.Dir
		if !filepath.IsAbs(c.Dir) && o.Workspace != "" {
			cmd.Dir = filepath.Join(o.Workspace, c.Dir)
		}
	}
	cmd.Env = childEnv(o.environ(), o.HiddenEnv, c.Env)
	stderr := &childproc.Tail{}
	cmd.Stderr = stderr
	childproc.OwnGroup(cmd)
	l := &link{kind: TransportStdio, stderr: stderr, init: &initGuard{}}
	l.transport = startedTransport{inner: &sdk.CommandTransport{Command: cmd, TerminateDuration: terminateWait}, l: l}
	return l, nil
}

// baseTransport is the round tripper under the server's headers: the one
// Options.HTTPClient gives for it (an OAuth client), else the default.
func baseTransport(o *Options, server string) http.RoundTripper {
	if o.HTTPClient != nil {
		if hc := o.HTTPClient(server); hc != nil && hc.Transport != nil {
			return hc.Transport
		}
	}
	return http.DefaultTransport
}

// childEnv is a stdio server's environment: steer's, less the variables
// that hold steer's own keys, plus the server's env (which wins).
func childEnv(environ, hidden []string, extra map[string]string) []string {
	out := make([]string, 0, len(environ)+len(extra))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if slices.Contains(hidden, name) {
			continue
		}
		if _, over := extra[name]; over {
			continue
		}
		out = append(out, kv)
	}
	for k, v := range extra {
		out = append(out, k+"="+v)
	}
	return out
}

// environ is the environment children inherit.
func (o *Options) environ() []string {
	if o.Environ != nil {
		return o.Environ
	}
	return os.Environ()
}

// headerTransport adds a server's configured headers to each request and
// notes a 401, which means the server wants a login, and a 404 to a
// session's request, which means the server ended it.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
	watch   *authWatch
	session *sessionWatch
	init    *initGuard
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	early, err := t.init.earlyMethod(req)
	switch {
	case err != nil:
		return nil, err
	case early == methodCancelled:
		return accepted(req), nil
	}
	if len(t.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err == nil {
		t.session.saw(req, resp)
		if early == methodInitialize {
			t.init.sawInitialize(resp.StatusCode)
		}
	}
	switch {
	case err == nil && resp.StatusCode == http.StatusUnauthorized:
		t.watch.unauthorized.Store(true)
	case err != nil:
		if nl, ok := needsLoginError(err); ok {
			t.watch.unauthorized.Store(true)
			t.watch.reason.Store(nl.Error())
		}
	}
	return resp, err
}

// authWatch records that an HTTP server answered 401, or that its OAuth
// transport said a login is needed (reason).
type authWatch struct {
	unauthorized atomic.Bool
	reason       atomic.Value // string
}

// needsLogin reports whether the server wants a login, and the OAuth
// client's words for it ("" when the server just answered 401).
func (l *link) needsLogin() (bool, string) {
	if l.auth == nil || !l.auth.unauthorized.Load() {
		return false, ""
	}
	reason, _ := l.auth.reason.Load().(string)
	return true, reason
}
