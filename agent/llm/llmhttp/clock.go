package llmhttp

import "time"

// Clock is the time a Watchdog runs on: RealClock in production, a fake in
// tests (llmhttptest.Clock), so that a two-minute window is tested in no
// time. AfterFunc runs f on a goroutine of its own (a fake may run it on the
// goroutine that advances it) and must be safe for concurrent use with the
// Timer's methods.
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a Clock's timer; its methods mean what time.Timer's do.
type Timer interface {
	Stop() bool
	Reset(d time.Duration) bool
}

// RealClock is the wall clock: time.Now and time.AfterFunc.
var RealClock Clock = realClock{}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
