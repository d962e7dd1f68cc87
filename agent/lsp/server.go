package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/steer-tui/steer/agent/childproc"
)

// State is where a server is in its life.
type State string

// The states a server is in; StateDisabled is "enabled": false.
const (
	StateDisabled   State = "disabled"
	StateNotStarted State = "not started"
	StateStarting   State = "starting"
	StateReady      State = "ready"
	StateFailed     State = "failed"
	StateStopped    State = "stopped"
)

// The bounds on a server; Options may shorten them (tests).
const (
	// StartTimeout bounds a server's start: spawning it, initialize, and
	// the wait for the diagnostics of its first file, which come after
	// the package load (gopls needs seconds for it on a small machine).
	StartTimeout = 20 * time.Second
	// PublishWait is how long after a change the tools wait for the
	// server to publish the file's diagnostics.
	PublishWait = 3 * time.Second
	// RequestTimeout bounds a write to the server and its answer to
	// shutdown: one that takes longer is hung.
	RequestTimeout = 5 * time.Second
	// shutdownTimeout bounds shutdown's answer when steer quits (gopls
	// takes about a second); a server past it is killed.
	shutdownTimeout = 2 * time.Second
	// exitGrace is how long a server that closed its output, or was
	// asked to exit, has to do so before it is failed or killed.
	exitGrace = time.Second
)

// timing is the bounds a server applies.
type timing struct{ start, publish, request time.Duration }

// server is one language server: its process, its connection, the
// documents steer opened with it and what it published. Every field under
// mu is read and written by the tools' goroutines, the connection's read
// loop (publications) and the process's wait.
type server struct {
	cfg Config
	dir string
	env []string
	t   timing
	log *slog.Logger

	// send orders the versions of a document with the notifications
	// carrying them, across concurrent tool calls.
	send sync.Mutex

	mu     sync.Mutex
	state  State
	reason string
	// gen counts starts and stops: what a process's goroutines report
	// after a newer start or a stop is ignored.
	gen  int
	pid  int
	conn *jsonrpc2.Conn
	// ready is closed when the current start ends, either way.
	ready chan struct{}
	// exited is closed when the current process has exited.
	exited chan struct{}
	// changed is closed and replaced on every publication and state
	// change: waiters select on it.
	changed   chan struct{}
	stderr    *childproc.Tail
	startTook time.Duration
	// fresh is set by a start: the first wait for diagnostics after it is
	// bounded by StartTimeout (the package load), not PublishWait.
	fresh bool
	// closed is set by the Manager's Close: nothing starts again.
	closed    bool
	open      map[string]*document
	published map[string]publication
	seq       uint64
}

// document is a file as steer last sent it to the server.
type document struct {
	version int
	text    string
	// sentSeq is the publication count when the text was sent, for a
	// server that publishes without versions.
	sentSeq uint64
}

// publication is the diagnostics the server last published for a file.
type publication struct {
	version *int
	seq     uint64
	at      time.Time
	diags   []Diagnostic
}

func newServer(cfg Config, dir string, env []string, t timing, log *slog.Logger) *server {
	s := &server{cfg: cfg, dir: dir, env: env, t: t, log: log, state: StateNotStarted, changed: make(chan struct{}),
		stderr: &childproc.Tail{}, open: map[string]*document{}, published: map[string]publication{}}
	if cfg.Disabled {
		s.state = StateDisabled
	}
	return s
}

// name is what results call the server: its command's name.
func (s *server) name() string { return filepath.Base(s.cfg.Command) }

// broadcast wakes every waiter; s.mu is held.
func (s *server) broadcast() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// ensure starts the server if it has not started, and waits until it is
// ready or failed, or ctx ends. waited says the caller saw the start.
func (s *server) ensure(ctx context.Context) (waited bool, err error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return false, errClosing
	}
	switch s.state {
	case StateNotStarted, StateStopped:
		s.startLocked()
	case StateReady:
		s.mu.Unlock()
		return false, nil
	case StateFailed, StateDisabled:
		defer s.mu.Unlock()
		return false, s.errLocked()
	}
	ready := s.ready
	s.mu.Unlock()
	select {
	case <-ready:
	case <-ctx.Done():
		return true, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != StateReady {
		return true, s.errLocked()
	}
	return true, nil
}

// errLocked is the error of a server that is not ready; s.mu is held.
func (s *server) errLocked() error {
	if s.state == StateFailed {
		return &FailedError{Server: s.name(), Reason: s.reason, Stderr: s.stderr.Brief(failureStderr)}
	}
	return fmt.Errorf("%s is %s", s.name(), s.state)
}

// errClosing is what a server says once the Manager is closing it.
var errClosing = errors.New("steer is closing its language servers")

// failureStderr is how many stderr lines a tool result's failure shows:
// the first, and the last or "…" and the last.
const failureStderr = 3

// FailedError says a server failed, why, and what it last wrote to stderr.
type FailedError struct {
	Server, Reason string
	Stderr         []string
}

func (e *FailedError) Error() string { return e.Server + " failed: " + e.Reason }

// startLocked starts a new process in the background; s.mu is held.
func (s *server) startLocked() {
	s.gen++
	s.state, s.reason = StateStarting, ""
	s.ready, s.exited = make(chan struct{}), make(chan struct{})
	s.open, s.published = map[string]*document{}, map[string]publication{}
	s.stderr = &childproc.Tail{} // this process's
	s.broadcast()
	go s.run(s.gen, s.ready, s.exited, s.stderr)
}

// run spawns the server and initializes it, all bounded by the start
// timeout.
func (s *server) run(gen int, ready, exited chan struct{}, stderr *childproc.Tail) {
	began := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), s.t.start)
	defer cancel()
	conn, err := s.spawn(gen, exited, stderr)
	if err != nil {
		s.fail(gen, err.Error())
		return
	}
	params := initializeParams{ProcessID: os.Getpid(), ClientInfo: clientInfo{Name: "steer"}, RootURI: fileURI(s.dir),
		WorkspaceFolders: []workspaceFolder{{URI: fileURI(s.dir), Name: filepath.Base(s.dir)}},
		Capabilities:     clientCapabilities, InitializationOptions: s.cfg.InitializationOptions}
	var result json.RawMessage
	if err := conn.Call(ctx, "initialize", params, &result); err != nil {
		if ctx.Err() != nil {
			s.fail(gen, "initialize: no answer within "+seconds(s.t.start))
			return
		}
		s.fail(gen, s.failure(exited, "initialize: "+err.Error()))
		return
	}
	if err := s.notify(gen, exited, conn, "initialized", struct{}{}); err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen != s.gen || s.state != StateStarting {
		return
	}
	s.state, s.startTook, s.fresh = StateReady, time.Since(began), true
	close(ready)
	s.broadcast()
	s.log.Info("language server ready", "server", s.name(), "took", s.startTook)
}

// failure is reason, unless the process has exited meanwhile (a write or
// a call failing because it died): then its exit is the reason, which its
// wait reports.
func (s *server) failure(exited chan struct{}, reason string) string {
	select {
	case <-exited:
	case <-time.After(exitGrace):
	}
	return reason
}

// fail marks the server failed, unless a newer start or a stop has
// happened, and kills its process group.
func (s *server) fail(gen int, reason string) {
	s.mu.Lock()
	if gen != s.gen || s.state == StateFailed || s.state == StateStopped {
		s.mu.Unlock()
		return
	}
	if s.state == StateStarting {
		close(s.ready)
	}
	s.state, s.reason = StateFailed, reason
	pid, conn, stderr := s.pid, s.conn, s.stderr
	s.pid, s.conn = 0, nil
	s.broadcast()
	s.mu.Unlock()
	s.log.Warn("language server failed", "server", s.name(), "reason", reason, "stderr", stderr.Last(childproc.TailLines))
	release(pid, conn)
}

// notify sends a notification, failing the server when the write errs or
// does not finish within the request timeout (a server that stopped
// reading its input).
func (s *server) notify(gen int, exited chan struct{}, conn *jsonrpc2.Conn, method string, params any) error {
	done := make(chan error, 1)
	go func() { done <- conn.Notify(context.Background(), method, params) }()
	timer := time.NewTimer(s.t.request)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			s.fail(gen, s.failure(exited, method+": "+err.Error()))
		}
		return err
	case <-timer.C:
		err := fmt.Errorf("%s: not read within %s", method, seconds(s.t.request))
		s.fail(gen, err.Error())
		return err
	}
}

// stop shuts the server down: shutdown and exit when it is ready, then
// the kill of its group. A final stop (Close) keeps it from starting
// again.
func (s *server) stop(final bool) {
	s.mu.Lock()
	s.closed = s.closed || final
	was, pid, conn, exited := s.state, s.pid, s.conn, s.exited
	if was == StateStarting {
		close(s.ready)
	}
	if was == StateStarting || was == StateReady {
		s.state = StateStopped
	}
	s.gen++
	s.pid, s.conn = 0, nil
	s.broadcast()
	s.mu.Unlock()
	if was == StateReady && conn != nil {
		ctx, cancel := context.WithTimeout(context.Background(), min(s.t.request, shutdownTimeout))
		if conn.Call(ctx, "shutdown", nil, nil) == nil {
			_ = conn.Notify(ctx, "exit", nil)
			select {
			case <-exited:
			case <-time.After(exitGrace):
			}
		}
		cancel()
	}
	release(pid, conn)
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

// closing says the Manager is closing the server.
func (s *server) closing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}
