package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/persistence"
)

// outcomeRepaired is the outcome of the run that repairs a transcript cut
// by a crash (the run outcomes are in runend.go).
const outcomeRepaired = "repaired"

// Run triggers recorded in the run records.
const (
	triggerUser   = "user"
	triggerLoad   = "load"
	triggerManual = "manual"
)

// SessionInfo summarises a saved session for pickers and listings.
type SessionInfo struct {
	ID       string
	Title    string
	Model    string
	Updated  time.Time
	Messages int
	// OpenElsewhere names the other live steer process that owns the
	// session ("pid 4242 on box"), which cannot be opened here; "" when
	// none does.
	OpenElsewhere string
	// ParentID is the session whose sub-agent this one is; "" for none.
	ParentID string
	// Running says that a run of the session goes on in this process (in
	// a host's background, or a sub-agent's); set by Host.ListSessions.
	Running bool
}

func newID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

func newSessionID() string { return newID("s_") }

// sessionState is the runtime's view of the current session; guarded by
// Runtime.mu.
type sessionState struct {
	id      string
	created bool   // the session has a row in the store
	runID   string // the run that is the session's writer now
	// runNamed: runID names the run under way (runName); false from each
	// run's agent_end until the next run is named.
	runNamed bool
	title    string // its saved title, or its first input
	// claim makes this process the session's one writer (SPEC §8); other
	// steer processes cannot open it until it is released or we die.
	claim *persistence.Claim
}

// adoptSessionWorkspace makes a session resumed by id work in the workspace
// it belongs to: its files, not those of the directory steer started in.
// Front ends compare Workspace() with where they started and say so.
func adoptSessionWorkspace(ctx context.Context, opts *Options) error {
	if opts.Session == "" || opts.Store == nil {
		return nil
	}
	sess, err := opts.Store.Session(ctx, opts.Session)
	if errors.Is(err, persistence.ErrNotFound) {
		return fmt.Errorf("no saved session %q; 'steer sessions' lists them", opts.Session)
	}
	if err != nil {
		return err
	}
	if sess.Workspace != "" {
		opts.Workspace = sess.Workspace
	}
	return nil
}

// openInitialSession resumes the session the options name, or the latest one
// of the workspace for Continue; otherwise a new session is created lazily,
// with its first input.
func (r *Runtime) openInitialSession(ctx context.Context) error {
	r.session = sessionState{id: newSessionID()}
	if r.store == nil {
		if r.opts.Session != "" || r.opts.Continue {
			return errors.New("saved sessions need the state directory's database")
		}
		return nil
	}
	switch {
	case r.opts.Session != "":
		return r.loadSession(ctx, r.opts.Session, nil)
	case r.opts.Continue:
		// The latest session of the workspace that no live process owns.
		latest, claim, err := r.store.ClaimLatestSession(ctx, r.opts.Workspace)
		if errors.Is(err, persistence.ErrNotFound) {
			return nil // nothing to continue: start afresh, as pi does
		}
		if err != nil {
			return err
		}
		return r.loadSession(ctx, latest.ID, claim)
	}
	return nil
}

// loadSession makes id the current session: it claims it (unless claim
// already holds it), repairs a transcript cut by a crash (never re-running
// tools), loads it, and restores the pending inputs to their queues. The
// session left behind is released for other processes. A session another
// live steer owns is refused with its *persistence.OwnedError.
func (r *Runtime) loadSession(ctx context.Context, id string, claim *persistence.Claim) (err error) {
	// What the last run wrote must be in before a transcript is read back,
	// and before the session it belongs to is released.
	if err := r.writes.flush(ctx); err != nil {
		return err
	}
	if err := r.writes.holdingWrites(r.SessionID()); err != nil {
		return err
	}
	if claim == nil {
		if claim, err = r.store.ClaimSession(ctx, id); err != nil {
			if errors.Is(err, persistence.ErrNotFound) {
				return fmt.Errorf("no saved session %q; 'steer sessions' lists them", id)
			}
			return err
		}
	}
	r.mu.Lock()
	previous := r.session.claim
	r.mu.Unlock()
	defer func() {
		if err != nil && claim != previous {
			r.writes.release(ctx, claim, nil)
		}
	}()
	sess, err := r.store.Session(ctx, id)
	if errors.Is(err, persistence.ErrNotFound) {
		return fmt.Errorf("no saved session %q; 'steer sessions' lists them", id)
	}
	if err != nil {
		return err
	}
	runID := newID("r_")
	if err := r.store.BeginRun(ctx, persistence.Run{ID: runID, SessionID: id, Trigger: triggerLoad, Started: r.opts.Now()}); err != nil {
		return err
	}
	repaired, err := r.store.RepairSession(ctx, id, runID)
	outcome, errText := outcomeRepaired, ""
	if err != nil {
		outcome, errText = OutcomeFailed, err.Error()
	}
	if endErr := r.store.EndRun(ctx, runID, outcome, errText, r.opts.Now()); err == nil {
		err = endErr
	}
	if err != nil {
		return fmt.Errorf("repairing session %s: %w", id, err)
	}
	if len(repaired) > 0 {
		r.log.Warn("repaired a transcript cut by a crash", "session", id, "appended", len(repaired))
	}
	choice, err := r.store.SessionProfiles(ctx, id)
	if err != nil {
		return err
	}
	msgs, err := r.store.LoadTranscript(ctx, id)
	if err != nil {
		return err
	}
	pending, err := r.store.PendingInputs(ctx, id)
	if err != nil {
		return err
	}
	if _, err := r.agent.Reset(msgs); err != nil {
		return err
	}
	r.adoptSavedModel(sess.ID, sess.Model)
	r.mu.Lock()
	r.session = sessionState{id: id, created: true, claim: claim, title: sess.Title}
	r.mu.Unlock()
	r.writes.release(ctx, previous, claim)
	r.choice.adoptSaved(id, choice)
	r.subs.mu.Lock()
	r.subs.stored = true // answers a crash left for this session
	r.subs.mu.Unlock()
	for _, it := range pending {
		r.agent.Enqueue(it)
	}
	return r.regate()
}

// adoptSavedModel switches to the model a session was saved with, unless it
// cannot be resolved or used now (its key is no longer set): then the
// current model stays, and the log says why.
func (r *Runtime) adoptSavedModel(sessionID, ref string) {
	if ref == "" {
		return
	}
	m, err := r.opts.Resolve(ref)
	if err == nil {
		err = r.catalog.unusable(m)
	}
	if err != nil {
		r.log.Warn("keeping the current model instead of the session's", "session", sessionID, "model", ref, "error", err)
		return
	}
	r.agent.SetModel(m, r.streamFor(m))
	r.thinking.follow(m)
}

// noteTitle titles a session still untitled with its first input.
func (r *Runtime) noteTitle(text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.session.title == "" {
		r.session.title = text
	}
}

// ensureSession gives the current session its row before its first input.
func (r *Runtime) ensureSession(ctx context.Context) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.store == nil || r.session.created {
		return r.session.id, nil
	}
	now := r.opts.Now()
	err := r.store.CreateSession(ctx, persistence.Session{
		ID: r.session.id, Workspace: r.opts.Workspace, Model: r.agent.State().Model.Ref(), ParentID: r.opts.ParentSession,
		Created: now, Updated: now,
	})
	if err != nil {
		return "", fmt.Errorf("saving the session: %w", err)
	}
	// CreateSession claimed it for this store; keep the handle to release.
	if r.session.claim, err = r.store.ClaimSession(ctx, r.session.id); err != nil {
		return "", fmt.Errorf("saving the session: %w", err)
	}
	// The choice made before the row existed (--profile, /profiles) is
	// saved with it.
	if c := r.choice.saved(); c != (persistence.ProfileChoice{}) {
		if err := r.store.SetSessionProfiles(ctx, r.session.id, c); err != nil {
			return "", fmt.Errorf("saving the session: %w", err)
		}
	}
	r.session.created = true
	return r.session.id, nil
}

// ListSessions lists the saved sessions of this workspace, newest first.
func (r *Runtime) ListSessions(ctx context.Context) ([]SessionInfo, error) {
	if r.store == nil {
		return nil, errors.New("saved sessions are not available without a state directory")
	}
	sessions, err := r.store.ListSessions(ctx, persistence.ListOptions{Workspace: r.opts.Workspace})
	if err != nil {
		return nil, err
	}
	out := make([]SessionInfo, len(sessions))
	for i, s := range sessions {
		out[i] = SessionInfo{ID: s.ID, Title: s.Title, Model: s.Model, Updated: s.Updated, Messages: s.MessageCount, ParentID: s.ParentID,
			OpenElsewhere: elsewhere(s.Owner, s.ID == r.SessionID())}
	}
	return out, nil
}

// elsewhere words the live owner of a session other than this runtime's
// current one (the only session it holds: current), or "".
func elsewhere(o persistence.Owner, current bool) string {
	if !o.Live() || current {
		return ""
	}
	if o.Host == "" {
		return fmt.Sprintf("pid %d", o.PID)
	}
	return fmt.Sprintf("pid %d on %s", o.PID, o.Host)
}

// SwitchSession makes the saved session id current; it fails while a run is
// active. Items queued in the session left behind stay saved with it.
func (r *Runtime) SwitchSession(ctx context.Context, id string) error {
	r.swap.Lock()
	defer r.swap.Unlock()
	if r.store == nil {
		return errors.New("saved sessions are not available without a state directory")
	}
	if r.agent.State().Running {
		return agent.ErrBusy
	}
	return r.loadSession(ctx, id, nil)
}

// sessionKey is the key of session id for what downstream needs one (a
// context engine's Session.Key): steer's sessions carry no key of their own,
// so it is backfilled from the id, read-only, before any engine call (seed
// 000 §4.1 ①, backfillSessionKey; SPEC §7). A sub-agent's key names its
// parent's session first: "s_parent/s_child".
func sessionKey(id, parent string) string {
	if parent == "" {
		return id
	}
	return parent + "/" + id
}
