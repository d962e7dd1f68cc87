package mcp

import (
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/steer-tui/steer/agent/humanize"
)

// A streamable-HTTP server may end a session whenever it likes, and then
// answers its session id with 404; the specification has the client start
// a new session (a new initialize, without the old id). The SDK fails the
// connection on a bare 404 but keeps it on a 404 whose body is a JSON-RPC
// error, and either way leaves starting again to steer. So the link's
// transport watches for a 404 to a request that carries a session id, and
// the session is then closed and a new one started at once: not a failure,
// not counted as a restart. The call that met the 404 fails, saying so;
// the server never ran it.

// sessionIDHeader names the streamable-HTTP session id.
const sessionIDHeader = "Mcp-Session-Id"

// sessionWatch records that the server answered a session's request with
// 404, and tells the server once.
type sessionWatch struct {
	gone   atomic.Bool
	onGone func()
}

// saw notes resp to req: a 404 to a request with a session id means the
// server no longer has the session.
func (w *sessionWatch) saw(req *http.Request, resp *http.Response) {
	if w == nil || resp.StatusCode != http.StatusNotFound || req.Header.Get(sessionIDHeader) == "" {
		return
	}
	if !w.gone.Swap(true) && w.onGone != nil {
		go w.onGone()
	}
}

// sessionGone reports whether the link's session was ended by the server.
func (l *link) sessionGone() bool { return l.session != nil && l.session.gone.Load() }

// errSessionGone ends a connection whose session the server ended; run
// starts a new one at once.
var errSessionGone = errors.New("the server ended the session (HTTP 404): a new one is started")

// A server that ends every session soon after it began (one behind a
// load balancer that does not keep a client on one replica, say) would
// have steer start sessions as fast as it can: after maxQuickRenewals
// sessions in a row that lasted less than quickSession each, the next
// such end is a failure, with the backoff and the restart count of any.
const (
	maxQuickRenewals = 3
	quickSession     = 10 * time.Second
)

// sessionRenewals counts the sessions in a row a server ended quickly.
type sessionRenewals struct{ quick int }

// next judges the end of a session that lasted d: nil starts a new one
// at once, an error fails the server.
func (r *sessionRenewals) next(d time.Duration) error {
	if d >= quickSession {
		r.quick = 0
		return nil
	}
	r.quick++
	if r.quick > maxQuickRenewals {
		r.quick = 0
		return fmt.Errorf("the server ended %d sessions in a row, each within %s of its start (HTTP 404)",
			maxQuickRenewals+1, humanize.Duration(quickSession))
	}
	return nil
}

// endSession closes l's session, when it is still the server's, so that
// wait sees the end and run starts a new session.
func (s *server) endSession(l *link) {
	s.mu.Lock()
	cs := s.session
	current := s.link == l && !s.closed
	s.mu.Unlock()
	if current && cs != nil {
		s.o.logger().Info("mcp server ended the session; starting a new one", "server", s.cfg.Name)
		_ = cs.Close()
	}
}

// currentLink is the link of the server's session; nil when it has none.
func (s *server) currentLink() *link {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.link
}
