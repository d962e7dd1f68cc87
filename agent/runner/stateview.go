package runner

import (
	"context"
	"errors"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/persistence"
)

// StateView is a state directory's database as the commands that run no
// agent see it (`steer sessions`, `steer inspect`): it answers in the
// runner's view types, so that those front ends never hold the store and
// the layering test can keep them off persistence. It runs no agent, claims
// no session and publishes no lanes; it writes only the inspectors' clears.
type StateView struct {
	store *persistence.Store
}

// StateViewOptions say how OpenStateView opens the database; the zero value
// opens it for reading and the inspectors' clears.
type StateViewOptions struct {
	// ReadOnlyWhenLocked opens the database read-only when a steer from
	// before per-session ownership holds the state directory's lock, so
	// that a listing works while one runs.
	ReadOnlyWhenLocked bool
}

// OpenStateView opens dir's database. Its errors are the store's own (a
// corrupt file, a newer steer's schema, a held lock), worded for the user.
func OpenStateView(dir string, o StateViewOptions) (*StateView, error) {
	store, err := persistence.Open(dir, persistence.Options{})
	var locked *persistence.LockedError
	if o.ReadOnlyWhenLocked && errors.As(err, &locked) {
		store, err = persistence.Open(dir, persistence.Options{ReadOnly: true})
	}
	if err != nil {
		return nil, err
	}
	return &StateView{store: store}, nil
}

// Close closes the database.
func (v *StateView) Close() error { return v.store.Close() }

// ErrNoSavedSession is what StateView.Transcript answers for an id that no
// saved session has.
var ErrNoSavedSession = errors.New("no saved session")

// IsCorrupt reports whether err says the database is corrupt (found so
// only once read, a garbage page behind a sound header, or refused by the
// open): the user has to move the file aside, as for a foreign file.
func IsCorrupt(err error) bool {
	var corrupt *persistence.CorruptError
	return errors.As(err, &corrupt)
}

// SavedSession is one session as `steer sessions --json` prints it.
type SavedSession struct {
	ID           string    `json:"id"`
	Workspace    string    `json:"workspace"`
	Title        string    `json:"title"`
	Name         string    `json:"name"` // what the user named it; "" for none
	Model        string    `json:"model"`
	ParentID     string    `json:"parentId"` // the delegating session; "" for a top-level one
	Created      time.Time `json:"created"`
	Updated      time.Time `json:"updated"`
	MessageCount int       `json:"messageCount"`
	InputTokens  int64     `json:"inputTokens"`
	OutputTokens int64     `json:"outputTokens"`
	Cost         float64   `json:"cost"`
	// OpenIn is the live steer process that has the session open.
	OpenIn *SessionOwner `json:"openIn,omitempty"`
}

// SessionOwner is the live steer process that owns a saved session.
type SessionOwner struct {
	PID  int    `json:"pid"`
	Host string `json:"host"`
}

// Sessions lists every saved session of every workspace, newest first;
// never null.
func (v *StateView) Sessions(ctx context.Context) ([]SavedSession, error) {
	sessions, err := v.store.ListSessions(ctx, persistence.ListOptions{})
	if err != nil {
		return nil, err
	}
	out := make([]SavedSession, len(sessions))
	for i, s := range sessions {
		out[i] = SavedSession{ID: s.ID, Workspace: s.Workspace, Title: s.Title, Name: s.Name, Model: s.Model,
			ParentID: s.ParentID, Created: s.Created, Updated: s.Updated, MessageCount: s.MessageCount,
			InputTokens: int64(s.InputTokens), OutputTokens: int64(s.OutputTokens), Cost: s.Cost}
		if s.Owner.Live() {
			out[i].OpenIn = &SessionOwner{PID: s.Owner.PID, Host: s.Owner.Host}
		}
	}
	return out, nil
}

// Transcript is the saved transcript of session id, or ErrNoSavedSession.
func (v *StateView) Transcript(ctx context.Context, id string) ([]agent.Message, error) {
	msgs, err := v.store.LoadTranscript(ctx, id)
	if errors.Is(err, persistence.ErrNotFound) {
		return nil, ErrNoSavedSession
	}
	return msgs, err
}

// SearchHit is a saved session that matches a search, with the best
// matching text (the terms in [brackets]).
type SearchHit struct {
	SessionID string    `json:"id"`
	Title     string    `json:"title"`
	Workspace string    `json:"workspace"`
	Updated   time.Time `json:"updated"`
	Snippet   string    `json:"match"`
}

// SearchLimit is how many sessions a search returns at most.
const SearchLimit = 50

// Search finds the saved sessions of every workspace whose messages or
// titles hold every word of query, best match first; never null.
func (v *StateView) Search(ctx context.Context, query string) ([]SearchHit, error) {
	return searchSessions(ctx, v.store, query, "")
}

// searchSessions searches store's sessions of workspace ("" for all).
func searchSessions(ctx context.Context, store *persistence.Store, query, workspace string) ([]SearchHit, error) {
	hits, err := store.SearchSessions(ctx, query, workspace, SearchLimit)
	if err != nil {
		return nil, err
	}
	out := make([]SearchHit, len(hits))
	for i, h := range hits {
		out[i] = SearchHit{SessionID: h.SessionID, Title: h.Title, Workspace: h.Workspace, Updated: h.Updated, Snippet: h.Snippet}
	}
	return out, nil
}

// ProfileChoosers are, by auth profile id, the saved sessions that prefer
// it and those locked to it, each in the order the store lists them (most
// recently updated first).
type ProfileChoosers struct {
	PreferredBy, LockedBy map[string][]string
}

// ProfileChoosers reads every saved session's choice of auth profile.
func (v *StateView) ProfileChoosers(ctx context.Context) (ProfileChoosers, error) {
	choices, err := v.store.ProfileChoices(ctx)
	if err != nil {
		return ProfileChoosers{}, err
	}
	return ProfileChoosers{
		PreferredBy: choosersOf(choices, func(c persistence.ProfileChoice) string { return c.Preferred }),
		LockedBy:    choosersOf(choices, func(c persistence.ProfileChoice) string { return c.Locked }),
	}, nil
}

// choosersOf is, for each profile, the sessions whose saved choice of pick
// names it, in the order listed.
func choosersOf(choices []persistence.SessionProfileChoice, pick func(persistence.ProfileChoice) string) map[string][]string {
	by := map[string][]string{}
	for _, c := range choices {
		if id := pick(c.ProfileChoice); id != "" {
			by[id] = append(by[id], c.SessionID)
		}
	}
	return by
}

// ProfileState is the shared ledger's entry of auth profile id.
func (v *StateView) ProfileState(ctx context.Context, id string) (failover.ProfileState, error) {
	return v.store.Ledger().Load(ctx, id)
}

// ClearProfile ends the cooldown and disabled windows of auth profile id and
// starts its error counters over, for every steer process (they share the
// ledger); its lifetime statistics stay. The caller checks that id is
// configured.
func (v *StateView) ClearProfile(ctx context.Context, id string) error {
	return v.store.ClearProfile(ctx, id)
}

// Engines views the configured context engines and the quarantines the
// shared database holds; it never starts an engine.
func (v *StateView) Engines(ctx context.Context, selected string, configured []EngineRef) (EnginesView, error) {
	return InspectEngines(ctx, v.store.EngineQuarantines(), selected, configured)
}

// ClearQuarantine lifts the quarantine of engine for every steer process
// (they read it from the database on each call); had says it had one.
func (v *StateView) ClearQuarantine(ctx context.Context, engine string) (had bool, err error) {
	return v.store.EngineQuarantines().Clear(ctx, engine)
}

// Lanes are the lanes of every live steer process on the state directory.
// Stalled is left nil: stalled runs are known only to the process that has
// them.
func (v *StateView) Lanes(ctx context.Context) (LanesView, error) {
	procs, err := v.store.LaneSnapshots(ctx)
	if err != nil {
		return LanesView{}, err
	}
	return LanesView{Processes: procs}, nil
}

// Runs lists the recent runs of every session, newest first, at most
// persistence.DefaultRunsLimit.
func (v *StateView) Runs(ctx context.Context) ([]RunView, error) {
	return ViewRuns(ctx, v.store, "", 0)
}
