package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
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
	// earlier is the history the model no longer sees (State.Earlier):
	// loaded with the session as far as its latest compaction, grown by
	// each rewrite of its context; savedBefore is that compaction's id
	// when there is saved history before it (State.EarlierSaved).
	earlier     []HistoryEntry
	savedBefore string
}

// sessionBook keeps the runtime's current session: which one it is (its
// id, its row, its claim, its title, the run writing it), opening the one
// the options name, switching to a saved one and starting a new one. Its
// swap keeps inputs out while the session changes: an input is saved and
// handed to the agent in the session it was typed in, never between a
// reset and the switch. It calls the store, the write side, the agent's
// Reset and Enqueue and the profile choice, and the rest of the runtime
// only through the funcs of sessionDeps.
type sessionBook struct {
	sessionDeps
	swap    sync.RWMutex
	mu      sync.Mutex
	session sessionState
}

// sessionDeps is what the session book uses of the runtime, set once the
// agent exists (New).
type sessionDeps struct {
	store     *persistence.Store
	writes    *writes
	log       *slog.Logger
	now       func() time.Time
	agent     *agent.Agent
	choice    *profileChoice
	workspace string
	parent    string // the session that started this sub-agent's
	// adoptModel switches to the model session sessionID was saved with
	// (settings.adoptSavedModel).
	adoptModel func(sessionID, ref string)
	// loaded tells the sub-agents that a saved session is current.
	loaded func()
	// regate puts the session's tools behind a fresh approval gate.
	regate func() error
	// life hears of the sessions made current and left (the session
	// hooks).
	life sessionLife
}

// sessionLife is told when a session becomes current (source: startup,
// resume, clear) and when one is left (reason: clear, other).
type sessionLife interface {
	began(source string)
	left(ctx context.Context, reason string)
}

// SessionID names the current session.
func (b *sessionBook) SessionID() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.session.id
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
func (b *sessionBook) openInitialSession(ctx context.Context, resume string, cont bool) error {
	b.session = sessionState{id: newSessionID()}
	if b.store == nil {
		if resume != "" || cont {
			return errors.New("saved sessions need the state directory's database")
		}
		return nil
	}
	switch {
	case resume != "":
		return b.loadSession(ctx, resume, nil)
	case cont:
		// The latest session of the workspace that no live process owns.
		latest, claim, err := b.store.ClaimLatestSession(ctx, b.workspace)
		if errors.Is(err, persistence.ErrNotFound) {
			b.life.began(sessionStartup)
			return nil // nothing to continue: start afresh, as pi does
		}
		if err != nil {
			return err
		}
		return b.loadSession(ctx, latest.ID, claim)
	}
	b.life.began(sessionStartup)
	return nil
}

// loadSession makes id the current session: it claims it (unless claim
// already holds it), repairs a transcript cut by a crash (never re-running
// tools), loads it, and restores the pending inputs to their queues. The
// session left behind is released for other processes. A session another
// live steer owns is refused with its *persistence.OwnedError.
func (b *sessionBook) loadSession(ctx context.Context, id string, claim *persistence.Claim) (err error) {
	// What the last run wrote must be in before a transcript is read back,
	// and before the session it belongs to is released.
	if err := b.writes.flush(ctx); err != nil {
		return err
	}
	if err := b.writes.holdingWrites(b.SessionID()); err != nil {
		return err
	}
	if claim == nil {
		if claim, err = b.store.ClaimSession(ctx, id); err != nil {
			if errors.Is(err, persistence.ErrNotFound) {
				return fmt.Errorf("no saved session %q; 'steer sessions' lists them", id)
			}
			return err
		}
	}
	b.mu.Lock()
	previous := b.session.claim
	b.mu.Unlock()
	defer func() {
		if err != nil && claim != previous {
			b.writes.release(ctx, claim, nil)
		}
	}()
	sess, err := b.store.Session(ctx, id)
	if errors.Is(err, persistence.ErrNotFound) {
		return fmt.Errorf("no saved session %q; 'steer sessions' lists them", id)
	}
	if err != nil {
		return err
	}
	runID := newID("r_")
	if err := b.store.BeginRun(ctx, persistence.Run{ID: runID, SessionID: id, Trigger: triggerLoad, Started: b.now()}); err != nil {
		return err
	}
	// The history is read once, and the repair judged from it: a long
	// session's is most of what opening it costs.
	loaded, repaired, err := b.loadHistory(ctx, id, runID)
	outcome, errText := outcomeRepaired, ""
	if err != nil {
		outcome, errText = OutcomeFailed, err.Error()
	}
	if endErr := b.store.EndRun(ctx, runID, outcome, errText, b.now()); err == nil {
		err = endErr
	}
	if err != nil {
		return fmt.Errorf("repairing session %s: %w", id, err)
	}
	if len(repaired) > 0 {
		b.log.Warn("repaired a transcript cut by a crash", "session", id, "appended", len(repaired))
	}
	choice, err := b.store.SessionProfiles(ctx, id)
	if err != nil {
		return err
	}
	pending, err := b.store.PendingInputs(ctx, id)
	if err != nil {
		return err
	}
	if _, err := b.agent.Reset(loaded.sees); err != nil {
		return err
	}
	b.adoptModel(sess.ID, sess.Model)
	if left := b.SessionID(); left != id {
		b.life.left(ctx, endOther)
		b.life.began(sessionResume)
	}
	b.mu.Lock()
	b.session = sessionState{id: id, created: true, claim: claim, title: sess.Title,
		earlier: loaded.earlier, savedBefore: loaded.savedBefore}
	b.mu.Unlock()
	b.writes.release(ctx, previous, claim)
	b.choice.adoptSaved(ctx, id, choice)
	b.loaded() // answers a crash left for this session
	for _, it := range pending {
		b.agent.Enqueue(it)
	}
	return b.regate()
}

// loadHistory reads the recent part of session id's history (see
// recentHistory) as run runID, the session's writer, and repairs a
// transcript cut by a crash (persistence.RepairLoaded). It returns the
// history the model no longer sees as far as read, what it sees, the
// compaction before which the saved history was left unread, and what the
// repair appended, which what it sees then holds.
func (b *sessionBook) loadHistory(ctx context.Context, id, runID string) (loaded sessionHistory, repaired []agent.Message, err error) {
	entries, err := b.store.LoadRecentHistory(ctx, id)
	if err != nil {
		return sessionHistory{}, nil, err
	}
	loaded.earlier, loaded.sees, loaded.savedBefore = recentHistory(entries)
	leaf := 0
	if len(entries) > 0 {
		leaf = entries[len(entries)-1].Seq
	}
	if repaired, err = b.store.RepairLoaded(ctx, id, runID, loaded.sees, leaf); err != nil || len(repaired) == 0 {
		return loaded, nil, err
	}
	// Rare (a crash cut the session): read again what the repair appended.
	if entries, err = b.store.LoadRecentHistory(ctx, id); err != nil {
		return sessionHistory{}, nil, err
	}
	loaded.earlier, loaded.sees, loaded.savedBefore = recentHistory(entries)
	return loaded, repaired, nil
}

// sessionHistory is what loadHistory read.
type sessionHistory struct {
	earlier     []HistoryEntry
	sees        []agent.Message
	savedBefore string
}

// row says which session is current and whether it has a row in the store.
func (b *sessionBook) row() (id string, created bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.session.id, b.session.created
}

// noteTitle titles a session still untitled with its first input.
func (b *sessionBook) noteTitle(text string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.session.title == "" {
		b.session.title = text
	}
}

// ensureSession gives the current session its row before its first input.
func (b *sessionBook) ensureSession(ctx context.Context) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.store == nil || b.session.created {
		return b.session.id, nil
	}
	now := b.now()
	err := b.store.CreateSession(ctx, persistence.Session{
		ID: b.session.id, Workspace: b.workspace, Model: b.agent.State().Model.Ref(), ParentID: b.parent,
		Created: now, Updated: now,
	})
	if err != nil {
		return "", fmt.Errorf("saving the session: %w", err)
	}
	// CreateSession claimed it for this store; keep the handle to release.
	if b.session.claim, err = b.store.ClaimSession(ctx, b.session.id); err != nil {
		return "", fmt.Errorf("saving the session: %w", err)
	}
	// The choice made before the row existed (--profile, /profiles) is
	// saved with it.
	if c := b.choice.saved(); c != (persistence.ProfileChoice{}) {
		if err := b.store.SetSessionProfiles(ctx, b.session.id, c); err != nil {
			return "", fmt.Errorf("saving the session: %w", err)
		}
	}
	b.session.created = true
	return b.session.id, nil
}

// SwitchSession makes the saved session id current; it fails while a run is
// active. Items queued in the session left behind stay saved with it.
func (b *sessionBook) SwitchSession(ctx context.Context, id string) error {
	b.swap.Lock()
	defer b.swap.Unlock()
	if b.store == nil {
		return errors.New("saved sessions are not available without a state directory")
	}
	if b.agent.State().Running {
		return agent.ErrBusy
	}
	return b.loadSession(ctx, id, nil)
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

// NewSession starts an empty session; it fails while a run is active.
// Queued items do not follow into the new session; they stay saved with the
// one left behind.
func (b *sessionBook) NewSession(ctx context.Context) error {
	b.swap.Lock()
	defer b.swap.Unlock()
	// The last run's saves land before its session is released to others;
	// ctx ends the wait.
	ctx, done := scoped(ctx, b.writes.ctx)
	defer done()
	if err := b.writes.flush(ctx); err != nil {
		return err
	}
	if err := b.writes.holdingWrites(b.SessionID()); err != nil {
		return err
	}
	if _, err := b.agent.Reset(nil); err != nil {
		return err
	}
	b.life.left(ctx, endClear)
	b.life.began(sessionClear)
	b.mu.Lock()
	left := b.session.claim
	b.session = sessionState{id: newSessionID()}
	b.mu.Unlock()
	// The session is new now: the one left is let go whatever ctx says,
	// within the runtime's lifetime only, or no one could open it.
	b.writes.release(b.writes.ctx, left, nil)
	b.choice.reset()
	return b.regate()
}

// title is the start of the session's first input (or its saved title),
// for the background badge.
func (b *sessionBook) title() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return firstLineOf(b.session.title, backgroundTitleMax)
}

// saveChoice writes c for the current session, if it is saved already (the
// choice's save; its saving lock is held).
func (b *sessionBook) saveChoice(ctx context.Context, c persistence.ProfileChoice) error {
	id, created := b.row()
	if b.store == nil || !created {
		return nil
	}
	ctx, done := scoped(ctx, b.writes.ctx)
	defer done()
	if err := b.store.SetSessionProfiles(ctx, id, c); err != nil {
		return fmt.Errorf("saving the auth profile choice: %w", err)
	}
	return nil
}
