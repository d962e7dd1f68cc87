package lanes

import (
	"slices"
	"sync"
	"time"
)

// epoch is where fake clocks start.
var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// fakeClock moves only when told. Its timers fire inside Advance, on the
// caller's goroutine, in the order they are due.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

func newFakeClock() *fakeClock { return &fakeClock{now: epoch} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.stopped && slices.Contains(c.timers, t)
		t.stopped = true
		return was
	}
}

// Advance moves the clock by d, firing every timer that falls due on the
// way (timers they arm included) at its own time.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	for {
		i := c.next(end)
		if i < 0 {
			break
		}
		t := c.timers[i]
		c.timers = slices.Delete(c.timers, i, i+1)
		c.now = t.at
		if t.stopped {
			continue
		}
		c.mu.Unlock()
		t.f()
		c.mu.Lock()
	}
	c.now = end
	c.mu.Unlock()
}

// next is the index of the earliest timer due by end, or -1.
func (c *fakeClock) next(end time.Time) int {
	best := -1
	for i, t := range c.timers {
		if !t.at.After(end) && (best < 0 || t.at.Before(c.timers[best].at)) {
			best = i
		}
	}
	return best
}

// armed counts the timers not stopped.
func (c *fakeClock) armed() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if !t.stopped {
			n++
		}
	}
	return n
}
