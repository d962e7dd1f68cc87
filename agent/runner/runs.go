package runner

import (
	"context"
	"errors"
	"time"

	"github.com/steer-tui/steer/persistence"
)

// RunView is one run as `steer inspect runs --json`, rpc inspect and the
// TUI's trace show it: what started it, how it ended (Outcome, one of the
// Outcome… words, and Reason, as its run_end said), and every attempt (the
// failover trace). Ended and DurationMs are null while it runs.
type RunView struct {
	ID         string        `json:"id"`
	SessionID  string        `json:"sessionId"`
	Trigger    string        `json:"trigger"`
	Started    time.Time     `json:"started"`
	Ended      *time.Time    `json:"ended"`
	DurationMs *int64        `json:"durationMs"`
	Outcome    string        `json:"outcome"`
	Reason     string        `json:"reason,omitempty"`
	Error      string        `json:"error,omitempty"`
	Attempts   []AttemptView `json:"attempts"`
}

// AttemptView is one attempt of a run: an auth profile of a model, why it
// failed ("" when it answered) and what was decided.
type AttemptView struct {
	Profile    string `json:"profile"`
	Model      string `json:"model"`
	Reason     string `json:"reason"`
	Decision   string `json:"decision"`
	DurationMs int64  `json:"durationMs"`
}

// ErrNoRecords is what the run inspectors answer without a database.
var ErrNoRecords = errors.New("run records need the state directory's database")

// Runs lists the recent runs of one session ("" for every session's),
// newest first, at most limit (0 for persistence.DefaultRunsLimit).
func (i *inspectors) Runs(ctx context.Context, sessionID string, limit int) ([]RunView, error) {
	if i.store == nil {
		return nil, ErrNoRecords
	}
	return ViewRuns(ctx, i.store, sessionID, limit)
}

// ViewRuns reads the recent runs and their attempts from store (read-only
// is enough); the views' arrays are never null.
func ViewRuns(ctx context.Context, store *persistence.Store, sessionID string, limit int) ([]RunView, error) {
	runs, err := store.ListRuns(ctx, persistence.RunsOptions{SessionID: sessionID, Limit: limit})
	if err != nil {
		return nil, err
	}
	out := make([]RunView, 0, len(runs))
	for _, run := range runs {
		v := RunView{ID: run.ID, SessionID: run.SessionID, Trigger: run.Trigger, Started: run.Started,
			Outcome: run.Outcome, Reason: run.Reason, Error: run.Error, Attempts: []AttemptView{}}
		if !run.Ended.IsZero() {
			ended, ms := run.Ended, run.Ended.Sub(run.Started).Milliseconds()
			v.Ended, v.DurationMs = &ended, &ms
		}
		if run.Attempts > 0 {
			attempts, err := store.RunAttempts(ctx, run.ID)
			if err != nil {
				return nil, err
			}
			for _, a := range attempts {
				v.Attempts = append(v.Attempts, AttemptView{Profile: a.Profile, Model: a.Model, Reason: a.Reason,
					Decision: a.Decision, DurationMs: a.Duration.Milliseconds()})
			}
		}
		out = append(out, v)
	}
	return out, nil
}
