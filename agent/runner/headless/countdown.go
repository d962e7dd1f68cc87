package headless

import (
	"fmt"
	"io"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

// countdownTick is how often a live countdown on a terminal is redrawn.
const countdownTick = time.Second

// countdown redraws a cooldown wait's line on a terminal once a second
// ("↻ waiting 23s for openai:a (rate_limit) · Ctrl+C cancels") until the
// request goes on. It alone writes to w between start and stop: the event
// that stops it waits for its last write, so lines never interleave.
type countdown struct {
	stopped chan struct{}
	done    chan struct{}
}

// startCountdown draws info's line on w and redraws it each tick until
// stop; now and tick are the clock (time.Now and a ticker's channel in
// steer).
func startCountdown(w io.Writer, info runner.RetryStartInfo, now func() time.Time, tick <-chan time.Time) *countdown {
	c := &countdown{stopped: make(chan struct{}), done: make(chan struct{})}
	until := now().Add(info.Delay())
	draw := func(at time.Time) {
		fmt.Fprintf(w, "\r↻ %s · Ctrl+C cancels\x1b[K", info.Summary(max(until.Sub(at), 0)))
	}
	draw(now())
	go func() {
		defer close(c.done)
		for {
			select {
			case <-c.stopped:
				fmt.Fprintln(w)
				return
			case at := <-tick:
				draw(at)
			}
		}
	}()
	return c
}

// stop ends the countdown with a line end, after its last redraw.
func (c *countdown) stop() {
	if c == nil {
		return
	}
	close(c.stopped)
	<-c.done
}
