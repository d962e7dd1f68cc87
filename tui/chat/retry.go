package chat

import (
	"time"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/sanitize"
)

// retryItem is a same-profile retry (auto_retry_start): it counts down
// while the request waits, with the spinner's ticks, and stops counting
// when the retry is made (the next attempt starts) or the sequence ends.
// Esc aborts the run, and so the wait.
type retryItem struct {
	info           runner.RetryStartInfo
	started, until time.Time
	done           bool
}

func (r *retryItem) render(rc *renderCtx) []string {
	left := time.Duration(0)
	if !r.done {
		now := rc.now // the spinner's clock, which only ticks while a run is active
		if now.Before(r.started) {
			now = r.started
		}
		left = max(r.until.Sub(now), 0)
	}
	text := "↻ " + r.info.Summary(left)
	if r.info.Cooldown && !r.done {
		text += " · Esc cancels"
	}
	lines := wrapLines(sanitize.String(text, sanitize.Options{}), rc.width)
	for i, l := range lines {
		lines[i] = rc.st.Notice.Render(l)
	}
	return lines
}

// startRetry shows a retry's countdown.
func (m *Model) startRetry(info runner.RetryStartInfo) {
	m.endRetry()
	now := m.d.Now()
	r := &retryItem{info: info, started: now, until: now.Add(info.Delay())}
	m.add(r)
	m.t.retry = r
}

// endRetry stops the countdown under way, if any.
func (m *Model) endRetry() {
	if r := m.t.retry; r != nil {
		r.done = true
		m.touch(r)
		m.t.retry = nil
	}
}
