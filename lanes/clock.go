package lanes

import "time"

// Clock is the time source of a Scheduler: the stamps in snapshots and the
// lane timeouts. Tests inject a fake one.
type Clock interface {
	// Now is the current time.
	Now() time.Time
	// AfterFunc calls f on its own goroutine once d has passed, unless
	// stop is called first; stop reports whether it prevented the call.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// systemClock is the wall clock.
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}
