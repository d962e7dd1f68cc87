package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/persistence"
)

// SavedEarlier returns the saved history of session sessionID that the
// model no longer sees from before compaction entry before
// (State.EarlierSaved), oldest first, as State.Earlier would hold it. A
// session opens with what the model sees and the compaction before it, so
// that a long one shows at once; a front end reads the rest with this, off
// its event loop. The tree is append-only, so what comes before a
// compaction never changes and a late read is still right; one whose
// compaction is no longer on the session's branch (after /tree) is refused.
func (b *sessionBook) SavedEarlier(ctx context.Context, sessionID, before string) ([]HistoryEntry, error) {
	if b.store == nil {
		return nil, errors.New("saved sessions need the state directory's database")
	}
	entries, err := b.store.LoadHistory(ctx, sessionID)
	if errors.Is(err, persistence.ErrNotFound) {
		return nil, ErrNoSavedSession
	}
	if err != nil {
		return nil, err
	}
	history := historyOf(entries)
	for i, e := range history {
		if e.ID == before && e.Kind == HistoryContext {
			earlier, _ := splitHistory(history[:i+1])
			return earlier[:len(earlier)-1], nil // the compaction itself is in State.Earlier
		}
	}
	return nil, fmt.Errorf("session %s has no compaction %q on its current branch", sessionID, before)
}

// recentHistory splits the start of a session's history as
// LoadRecentHistory reads it: the compaction it starts with (the part of
// State.Earlier known at once), what the model sees, and the compaction's
// id when there is saved history before it (State.EarlierSaved).
func recentHistory(entries []persistence.Entry) (earlier []HistoryEntry, sees []agent.Message, savedBefore string) {
	earlier, sees = splitHistory(historyOf(entries))
	if len(entries) > 0 && entries[0].Kind == persistence.EntryContext && entries[0].Parent != 0 {
		savedBefore = entryID(entries[0].Seq)
	}
	return earlier, sees, savedBefore
}
