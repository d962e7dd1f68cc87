package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/steer-tui/steer/persistence"
)

// What the session book says of the sessions: the saved ones of its
// workspace, for pickers and listings, and the workspace itself.

// SessionInfo summarises a saved session for pickers and listings.
type SessionInfo struct {
	ID    string
	Title string
	// Name is what the user named the session (/name); "" for none.
	Name     string
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

// ListSessions lists the saved sessions of this workspace, newest first.
func (b *sessionBook) ListSessions(ctx context.Context) ([]SessionInfo, error) {
	if b.store == nil {
		return nil, errors.New("saved sessions are not available without a state directory")
	}
	sessions, err := b.store.ListSessions(ctx, persistence.ListOptions{Workspace: b.workspace})
	if err != nil {
		return nil, err
	}
	out := make([]SessionInfo, len(sessions))
	for i, s := range sessions {
		out[i] = SessionInfo{ID: s.ID, Title: s.Title, Name: s.Name, Model: s.Model, Updated: s.Updated, Messages: s.MessageCount, ParentID: s.ParentID,
			OpenElsewhere: elsewhere(s.Owner, s.ID == b.SessionID())}
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

// Workspace is the directory the tools work in: Options.Workspace, or the
// workspace of the session Options.Session names when that differs.
func (b *sessionBook) Workspace() string { return b.workspace }

// SearchSessions finds the saved sessions whose messages (tool output
// included), titles or names hold every word of query, best match first:
// this workspace's, or every workspace's when everywhere.
func (b *sessionBook) SearchSessions(ctx context.Context, query string, everywhere bool) ([]SearchHit, error) {
	if b.store == nil {
		return nil, errors.New("saved sessions are not available without a state directory")
	}
	workspace := b.workspace
	if everywhere {
		workspace = ""
	}
	return searchSessions(ctx, b.store, query, workspace)
}
