package screen

import "time"

// Clock is what a Screen reads the time from and schedules frames with;
// tests drive a fake one.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f once, on a goroutine of its own, after d.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a frame scheduled with Clock.AfterFunc.
type Timer interface {
	// Stop cancels the call if it has not started; a call that has started
	// finds the screen closed and does nothing.
	Stop() bool
}

// RealClock is the wall clock: time.Now and time.AfterFunc.
var RealClock Clock = realClock{}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
