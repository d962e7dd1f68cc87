package agent

import (
	"context"
	"time"
)

// Sleep waits d, or until ctx is done, and says which came first: nil when d
// passed, ctx.Err() when ctx ended the wait. A wait of d ≤ 0 only checks ctx.
// It is the default of the injectable sleeps (the runner's retry wait, the
// scripted provider's pacing), whose tests swap in a fake clock.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
