package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/steer-tui/steer/agent/childproc"
	"github.com/steer-tui/steer/agent/mcp/oauth"
)

// MaxRestarts is how often a failed server is restarted by itself before
// it is left failed until Restart.
const MaxRestarts = 3

// protocolVersion is the version steer asks for: the latest released
// specification (the SDK's default is a draft that starts with a
// server/discover request older servers do not know).
const protocolVersion = "2025-11-25"

// server is one configured server and its connection, restarted by its
// own goroutine (run). Its fields are guarded by mu; listeners learn of
// every change through changed.
type server struct {
	cfg     Config
	o       *Options
	changed func()

	mu       sync.Mutex
	state    State
	err      string
	stderr   []string
	restarts int
	running  bool // run's goroutine is under way
	closed   bool
	session  *sdk.ClientSession
	link     *link
	red      redactor
	lists    lists
	progress map[string]func(*sdk.ProgressNotificationParams)
	calls    map[string]inflight // the running tool calls
	// progressed is when a progress notification last came, answering
	// the server's requests steer is answering (ended if it fails): signs
	// of life for the watchdog.
	progressed time.Time
	answering  map[int]context.CancelCauseFunc
	answerID   int
	settledCh  chan struct{} // closed when the state first settles
	auth       *oauth.Authorizer
	kick       chan struct{} // Restart wakes a backoff wait
}

// lists are what a ready server offers.
type lists struct {
	tools     []*sdk.Tool
	prompts   []*sdk.Prompt
	resources []*sdk.Resource
	templates []*sdk.ResourceTemplate
}

func newServer(c Config, o *Options, changed func(), initial State) *server {
	s := &server{cfg: c, o: o, changed: changed, state: initial, settledCh: make(chan struct{}),
		kick: make(chan struct{}, 1), progress: map[string]func(*sdk.ProgressNotificationParams){},
		calls: map[string]inflight{}, answering: map[int]context.CancelCauseFunc{}}
	if initial.settled() {
		close(s.settledCh)
	}
	return s
}

// start runs the server's connection loop unless it runs already.
func (s *server) start(ctx context.Context) {
	s.mu.Lock()
	if s.running || s.closed {
		s.mu.Unlock()
		return
	}
	s.running, s.state = true, StateStarting
	s.mu.Unlock()
	s.changed()
	go s.run(ctx)
}

// run connects, waits for the connection to end, and reconnects with
// backoff until MaxRestarts restarts have failed, the server needs a
// login, or ctx ends (Close).
func (s *server) run(ctx context.Context) {
	defer func() {
		s.mu.Lock()
		s.running = false
		s.mu.Unlock()
	}()
	var renewals sessionRenewals
	for {
		began := time.Now()
		err := s.connect(ctx)
		if err == nil {
			err = s.wait()
		}
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, errSessionGone) {
			if err = renewals.next(time.Since(began)); err == nil {
				s.mu.Lock()
				s.state = StateStarting
				s.mu.Unlock()
				s.changed()
				continue
			}
		}
		if !s.fail(err) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
		case <-time.After(s.o.backoff(s.restartCount())):
		}
		s.mu.Lock()
		s.restarts++
		s.state = StateStarting
		s.mu.Unlock()
		s.changed()
	}
}

// connect starts the server and lists what it has, within its timeout: a
// server that does not answer in time is killed then, not after the SDK's
// own grace periods.
func (s *server) connect(parent context.Context) error {
	x, err := expand(s.cfg, s.o.getenv())
	s.mu.Lock()
	s.red = redactor(x.secrets)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	l, err := s.newLink(x)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(parent, s.cfg.timeout())
	defer cancel()
	stopKill := context.AfterFunc(ctx, l.kill)
	cs, err := newClient(s).Connect(ctx, l.transport, &sdk.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil && l.init.refused.Load() {
		cs, l, err = s.connectLegacy(ctx, x, l, err)
	}
	if err == nil {
		l.init.initialized()
		var ls lists
		if ls, err = list(ctx, cs); err == nil {
			if lerr := askForLogs(ctx, cs, s.o.logger()); lerr != nil { // its tools work without
				s.o.logger().Warn("mcp server's log level could not be set", "server", s.cfg.Name, "error", s.red.clean(lerr.Error()))
			}
		}
		if err == nil && stopKill() {
			s.mu.Lock()
			if s.closed { // Close came first: it saw no session to close
				s.mu.Unlock()
				_ = cs.Close()
				l.kill()
				return errors.New("closed")
			}
			s.session, s.link, s.lists, s.state, s.err, s.stderr = cs, l, ls, StateReady, "", nil
			s.mu.Unlock()
			if l.sessionGone() { // a 404 while listing, before the link was the server's
				s.endSession(l)
			}
			s.settle()
			s.changed()
			return nil
		}
		_ = cs.Close()
	}
	stopKill()
	l.kill()
	return s.describe(ctx, l, err)
}

// describe words a failed start: a login needed, a timeout, or the error
// with the child's last stderr lines kept for the status.
func (s *server) describe(ctx context.Context, l *link, err error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l.stderr != nil {
		s.stderr = l.stderr.Last(childproc.TailLines)
	}
	if need, reason := l.needsLogin(); need {
		if reason == "" {
			reason = "the server answered 401: run " + LoginCommand(s.cfg.Name)
		}
		return needsLogin{reason}
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("no answer within %s (timeoutSeconds)", s.cfg.timeout())
	}
	return err
}

// needsLogin is a start refused for want of a login (a 401).
type needsLogin struct{ reason string }

func (e needsLogin) Error() string { return e.reason }

// wait blocks until the session ends; an end that Close did not ask for
// is an error.
func (s *server) wait() error {
	s.mu.Lock()
	cs, l := s.session, s.link
	s.mu.Unlock()
	stop, hung := s.watch(cs)
	err := cs.Wait()
	stop()
	if herr := hung(); herr != nil {
		err = herr
	}
	if l.sessionGone() {
		err = errSessionGone
	}
	l.kill()
	s.mu.Lock()
	defer s.mu.Unlock()
	if l.stderr != nil {
		s.stderr = l.stderr.Last(childproc.TailLines)
	}
	s.session, s.link, s.lists = nil, nil, lists{}
	if errors.Is(err, errSessionGone) {
		return err
	}
	if err == nil || errors.Is(err, sdk.ErrConnectionClosed) {
		err = errors.New("the server closed the connection")
	}
	return fmt.Errorf("connection lost: %w", err)
}

// fail records err as the server's failure; it reports whether the server
// is to be restarted.
func (s *server) fail(err error) (restart bool) {
	s.mu.Lock()
	msg := s.red.clean(oneLine(err.Error()))
	for i, line := range s.stderr {
		s.stderr[i] = s.red.clean(line)
	}
	s.err = msg
	s.state = StateFailed
	s.dropAnswers(fmt.Errorf("mcp server %s failed: %s", s.cfg.Name, msg))
	if nl, ok := errors.AsType[needsLogin](err); ok {
		s.state, s.err = StateNeedsLogin, s.red.clean(nl.reason)
	}
	restart = s.state == StateFailed && s.restarts < MaxRestarts && !s.closed
	s.mu.Unlock()
	s.o.logger().Warn("mcp server failed", "server", s.cfg.Name, "error", msg)
	s.settle()
	s.changed()
	return restart
}

func (s *server) restartCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.restarts
}

// settle marks the first settled state, for Settled.
func (s *server) settle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.settledCh:
	default:
		close(s.settledCh)
	}
}

// restart starts a failed server again with a fresh restart count, or
// reconnects a running one.
func (s *server) restart(ctx context.Context) {
	s.mu.Lock()
	s.restarts = 0
	running, cs := s.running, s.session
	s.mu.Unlock()
	if !running {
		s.start(ctx)
		return
	}
	select {
	case s.kick <- struct{}{}:
	default:
	}
	if cs != nil {
		_ = cs.Close() // run's wait sees the end and reconnects
	}
}

// closeGrace is how long closing waits for a server to end by itself
// (a stdio child after its stdin closed, an HTTP server's answer to
// DELETE) before a child's group is killed and steer goes on quitting.
const closeGrace = time.Second

// close ends the session and the child, for good, within about
// closeGrace: a quit must not wait on a server that ignores it.
func (s *server) close() {
	s.mu.Lock()
	s.closed = true
	s.dropAnswers(fmt.Errorf("mcp server %s closed", s.cfg.Name))
	cs, l := s.session, s.link
	s.mu.Unlock()
	if cs == nil {
		return
	}
	done := make(chan struct{})
	go func() {
		_ = cs.Close() // a streamable session sends DELETE
		close(done)
	}()
	select {
	case <-done:
		l.kill() // what the child started may outlive it
	case <-time.After(closeGrace):
		l.kill()
		if l.stderr != nil { // a stdio child: reaped at once now that it is dead
			<-done
		}
	}
}

// status is the server's Status.
func (s *server) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{Name: s.cfg.Name, Transport: s.cfg.Transport, Source: s.cfg.Source, State: s.state,
		Error: s.err, Stderr: append([]string(nil), s.stderr...), Restarts: s.restarts,
		Tools: len(s.admitted()), Prompts: len(s.lists.prompts), Resources: len(s.lists.resources)}
	if s.link != nil {
		st.Transport = s.link.kind
	}
	if s.state == StateNeedsLogin {
		st.LoginHint = LoginCommand(s.cfg.Name)
	}
	return st
}

// admitted are the listed tools the filter lets through; mu is held.
func (s *server) admitted() []*sdk.Tool {
	var out []*sdk.Tool
	for _, t := range s.lists.tools {
		if s.cfg.Tools.Admits(t.Name) {
			out = append(out, t)
		}
	}
	return out
}

// ready returns the session when the server is ready.
func (s *server) ready() (*sdk.ClientSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != StateReady || s.session == nil {
		if s.err != "" {
			return nil, fmt.Errorf("mcp server %s is %s: %s", s.cfg.Name, s.state, s.err)
		}
		return nil, fmt.Errorf("mcp server %s is %s", s.cfg.Name, s.state)
	}
	return s.session, nil
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
