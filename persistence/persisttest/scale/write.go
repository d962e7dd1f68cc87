package scale

import (
	"context"
	"fmt"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/contextguard"
	"github.com/steer-tui/steer/persistence"
)

// Session describes a session to write.
type Session struct {
	ID, Workspace string
	// Messages is how many messages the history holds (see Messages).
	Messages int
	// Topic is the word the session's texts are about; search finds it.
	Topic string
	// CompactEvery, when positive, compacts after the turn that reaches
	// every so many messages: a context entry holding a summary and the
	// last turn, as a compaction writes it. The history keeps everything.
	CompactEvery int
	// Start stamps the first message.
	Start time.Time
	// Model is the model the session was saved with; "" is scripted/echo,
	// the offline default.
	Model string
}

// Entries is how many entries of the tree s makes: its messages and its
// compactions' context entries.
func (s Session) Entries() int {
	if s.CompactEvery <= 0 {
		return s.Messages
	}
	return s.Messages + len(s.compactions())
}

// compactions are the message counts after which s compacts.
func (s Session) compactions() []int {
	var at []int
	for n := turnLength; n < s.Messages; n += turnLength {
		if s.CompactEvery > 0 && n/s.CompactEvery > (n-turnLength)/s.CompactEvery {
			at = append(at, n)
		}
	}
	return at
}

// compacted is what the model sees after a compaction once msgs[:n] are
// written: a summary and the last turn.
func (s Session) compacted(msgs []agent.Message, n int) []agent.Message {
	summary := contextguard.SummaryMessage(fmt.Sprintf("Turns 0 to %d fixed the %s tests one step at a time.",
		n/turnLength-1, s.Topic), msgs[n-1].Timestamp)
	return append([]agent.Message{summary}, msgs[n-turnLength:n]...)
}

// model is the model s was saved with.
func (s Session) model() string {
	if s.Model == "" {
		return "scripted/echo"
	}
	return s.Model
}

// Write creates session s in store and appends its messages one by one as
// one run, the writer the appends are fenced by, with s's compactions in
// between; the run then ends and the session's claim is released, so that
// another store can open it. Each append is its own transaction, as a live
// session's are.
func Write(ctx context.Context, store *persistence.Store, s Session) error {
	if err := store.CreateSession(ctx, persistence.Session{ID: s.ID, Workspace: s.Workspace, Model: s.model(),
		Created: s.Start, Updated: s.Start}); err != nil {
		return fmt.Errorf("scale session %s: %w", s.ID, err)
	}
	runID := "r_scale_" + s.ID
	if err := store.BeginRun(ctx, persistence.Run{ID: runID, SessionID: s.ID, Trigger: "user", Started: s.Start}); err != nil {
		return fmt.Errorf("scale session %s: %w", s.ID, err)
	}
	msgs := Messages(s.Messages, s.Topic, s.Start)
	compactAt := map[int]bool{}
	for _, n := range s.compactions() {
		compactAt[n] = true
	}
	for i, m := range msgs {
		if err := store.AppendMessage(ctx, s.ID, runID, m); err != nil {
			return fmt.Errorf("scale session %s, message %d: %w", s.ID, i, err)
		}
		if n := i + 1; compactAt[n] {
			if err := store.RewriteTranscript(ctx, s.ID, runID, s.compacted(msgs, n)); err != nil {
				return fmt.Errorf("scale session %s, compaction after %d: %w", s.ID, n, err)
			}
		}
	}
	end := s.Start.Add(time.Duration(s.Messages) * time.Second)
	if err := store.EndRun(ctx, runID, "completed", "", end); err != nil {
		return fmt.Errorf("scale session %s: %w", s.ID, err)
	}
	claim, err := store.ClaimSession(ctx, s.ID) // the claim BeginRun took
	if err == nil {
		err = claim.Release(ctx)
	}
	if err != nil {
		return fmt.Errorf("scale session %s: releasing it: %w", s.ID, err)
	}
	return nil
}

// Import creates session s in store in one transaction through
// ImportSession (what `steer sessions import` does): the same entries and
// search rows as Write, written in a fraction of the time, for fixtures of
// many or long sessions.
func Import(ctx context.Context, store *persistence.Store, s Session) error {
	entries := make([]persistence.ImportedEntry, 0, s.Entries())
	msgs := Messages(s.Messages, s.Topic, s.Start)
	compactAt := map[int]bool{}
	for _, n := range s.compactions() {
		compactAt[n] = true
	}
	for i, m := range msgs {
		entries = append(entries, persistence.ImportedEntry{Parent: len(entries) - 1, Kind: persistence.EntryMessage, Message: m, Created: m.Timestamp})
		if n := i + 1; compactAt[n] {
			entries = append(entries, persistence.ImportedEntry{Parent: len(entries) - 1, Kind: persistence.EntryContext,
				Context: s.compacted(msgs, n), Created: m.Timestamp})
		}
	}
	err := store.ImportSession(ctx, persistence.ImportedSession{
		Session: persistence.Session{ID: s.ID, Workspace: s.Workspace, Model: s.model(), Created: s.Start},
		Entries: entries, Leaf: len(entries) - 1,
	})
	if err != nil {
		return fmt.Errorf("scale session %s: %w", s.ID, err)
	}
	return nil
}
