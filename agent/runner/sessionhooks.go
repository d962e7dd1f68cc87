package runner

import (
	"context"
	"sync"

	"github.com/steer-tui/steer/agent/runner/hooks"
)

// The SessionStart sources and the SessionEnd reasons steer sends, Claude
// Code's words.
const (
	sessionStartup = "startup" // a new session, as steer starts
	sessionResume  = "resume"  // a saved session made current
	sessionClear   = "clear"   // a new session from /new
	sessionCompact = "compact" // the session after a compaction
	endClear       = "clear"
	endOther       = "other"
)

// sessionHooks runs the hooks of a session's life. SessionStart runs
// before the first request of each session (steer makes a session lazily:
// a TUI opened and closed without a message starts none), and again after
// a compaction, and what it says (plain text, additionalContext) joins
// every request's system prompt until the next SessionStart; SessionEnd
// runs when a session that started is left, or steer closes. PreCompact
// runs before every compaction, Notification when an approval or a
// server's question waits for the user. A sub-agent runs only the
// Notification hooks (its stop is SubagentStop, stopHooks): it has no
// session of the user's own.
type sessionHooks struct {
	calls    *hookCalls
	sessions bool // false in a sub-agent: no session events
	memory   *memory
	life     context.Context // the runtime's: Notification hooks run on it

	mu      sync.Mutex
	source  string // the SessionStart to run before the next request, "" when none
	started bool   // SessionStart ran for the current session

	notes sync.WaitGroup // Notification hooks under way, waited for at Close
}

func newSessionHooks(calls *hookCalls, m *memory, subAgent bool, life context.Context) *sessionHooks {
	return &sessionHooks{calls: calls, sessions: !subAgent, memory: m, life: life}
}

// began says that a session became current: its SessionStart runs before
// its next request. After a compaction the session is the same one, and
// only the context is asked again.
func (s *sessionHooks) began(source string) {
	if !s.sessions {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.source = source
	if source != sessionCompact {
		s.started = false
		s.memory.setSessionContext("")
	}
}

// beforeRequest runs the SessionStart hooks still to run.
func (s *sessionHooks) beforeRequest(ctx context.Context) {
	if !s.sessions {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.source == "" {
		return
	}
	in := s.calls.input(hooks.SessionStart)
	in.Source, s.source, s.started = s.source, "", true
	if !s.calls.engine.Has(in) {
		return
	}
	s.memory.setSessionContext(s.calls.engine.Run(ctx, in).Context)
}

// left runs the SessionEnd hooks of the session being left, if it started.
func (s *sessionHooks) left(ctx context.Context, reason string) {
	if !s.sessions {
		return
	}
	s.mu.Lock()
	started := s.started
	s.started, s.source = false, ""
	s.mu.Unlock()
	in := s.calls.input(hooks.SessionEnd)
	in.Reason = reason
	if started && s.calls.engine.Has(in) {
		s.calls.engine.Run(ctx, in)
	}
}

// preCompact runs the PreCompact hooks before a compaction (trigger manual
// for /compact, auto for the guard's); they cannot stop it.
func (s *sessionHooks) preCompact(ctx context.Context, manual bool, instructions string) {
	if !s.sessions {
		return
	}
	in := s.calls.input(hooks.PreCompact)
	in.Trigger, in.CustomInstructions = "auto", &instructions
	if manual {
		in.Trigger = "manual"
	}
	if s.calls.engine.Has(in) {
		s.calls.engine.Run(ctx, in)
	}
}

// notification runs the Notification hooks for message, of kind
// (permission_prompt, elicitation_dialog), without holding up the caller:
// the question is already on its way to the user.
func (s *sessionHooks) notification(kind, message string) {
	in := s.calls.input(hooks.Notification)
	in.NotificationType, in.Message = kind, message
	if !s.calls.engine.Has(in) {
		return
	}
	s.notes.Go(func() { s.calls.engine.Run(s.life, in) })
}

// close runs SessionEnd for the current session and waits, until ctx
// ends, for the Notification hooks under way.
func (s *sessionHooks) close(ctx context.Context) {
	s.left(ctx, endOther)
	waitOrDone(ctx, &s.notes)
}
