// Package llmhttptest has what tests of idle watchdogs need: a fake
// llmhttp.Clock that moves only when told to, fires timers on the goroutine
// that moves it, and records every arming, so that a test can wait until a
// watchdog has seen what a server sent before it moves time on — a
// two-minute window tested in milliseconds, without sleeps.
package llmhttptest

import (
	"context"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent/llm/llmhttp"
)

// WaitLimit bounds, in real time, how long WaitArm waits for an arming
// that never comes, so that a broken test fails instead of hanging.
const WaitLimit = 10 * time.Second

// Clock is a fake llmhttp.Clock. The zero value is not usable; NewClock
// makes one. It is safe for concurrent use.
type Clock struct {
	mu    sync.Mutex
	cond  *sync.Cond
	now   time.Time
	live  []*timer
	arms  []time.Time // the deadline of every arming, in order
	fired []time.Time // the times timers fired at, in order
}

// NewClock returns a clock standing at start.
func NewClock(start time.Time) *Clock {
	c := &Clock{now: start}
	c.cond = sync.NewCond(&c.mu)
	return c
}

// Now implements llmhttp.Clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc implements llmhttp.Clock: f runs on the goroutine of the
// Advance that reaches its deadline.
func (c *Clock) AfterFunc(d time.Duration, f func()) llmhttp.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{c: c, f: f}
	c.live = append(c.live, t)
	t.arm(d)
	return t
}

// Advance moves the clock d on, firing every timer whose deadline it passes,
// in deadline order, each with the clock standing at its deadline.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	target := c.now.Add(d)
	for {
		var next *timer
		for _, t := range c.live {
			if t.active && !t.when.After(target) && (next == nil || t.when.Before(next.when)) {
				next = t
			}
		}
		if next == nil {
			break
		}
		next.active = false
		if next.when.After(c.now) {
			c.now = next.when
		}
		c.fired = append(c.fired, c.now)
		c.mu.Unlock()
		next.f()
		c.mu.Lock()
	}
	c.now = target
	c.mu.Unlock()
}

// Arms is the number of armings so far (AfterFunc and Reset calls).
func (c *Clock) Arms() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.arms)
}

// WaitArm waits for the i-th arming (0-based) and returns its deadline; ok
// is false when none came within WaitLimit.
func (c *Clock) WaitArm(i int) (deadline time.Time, ok bool) {
	timedOut := false
	stop := time.AfterFunc(WaitLimit, func() {
		c.mu.Lock()
		timedOut = true
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer stop.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.arms) <= i && !timedOut {
		c.cond.Wait()
	}
	if len(c.arms) <= i {
		return time.Time{}, false
	}
	return c.arms[i], true
}

// Fired returns the times timers fired at, in order.
func (c *Clock) Fired() []time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Time(nil), c.fired...)
}

// Sleep waits until the clock has moved d on, or ctx is done; it has the
// shape of the scripted provider's Options.Sleep.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	done := make(chan struct{})
	t := c.AfterFunc(d, func() { close(done) })
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		t.Stop()
		return ctx.Err()
	}
}

// timer is one of a Clock's timers; its fields are guarded by the clock's
// mutex.
type timer struct {
	c      *Clock
	f      func()
	when   time.Time
	active bool
}

// arm sets the deadline d from now; the clock's mutex is held.
func (t *timer) arm(d time.Duration) {
	t.when, t.active = t.c.now.Add(d), true
	t.c.arms = append(t.c.arms, t.when)
	t.c.cond.Broadcast()
}

func (t *timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.active
	t.active = false
	return was
}

func (t *timer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.active
	t.arm(d)
	return was
}
