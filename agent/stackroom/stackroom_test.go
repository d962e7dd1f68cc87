package stackroom

import (
	"runtime"
	"testing"
)

// TestMakeGrowsTheStack calls Make first thing in a fresh goroutine (which
// starts with a few KB of stack) and checks that the stack memory in use grew
// by at least Size: the compiler kept Make's frame, and the runtime grew the
// stack to hold it. A small function in the same place grows nothing.
func TestMakeGrowsTheStack(t *testing.T) {
	for _, tc := range []struct {
		name     string
		call     func()
		minGrown uint64
		maxGrown uint64
	}{
		{"Make", Make, Size, 1 << 20},
		{"a small function", small, 0, 0},
	} {
		grown := make(chan uint64)
		go func() {
			before := stackInUse()
			tc.call()
			grown <- stackInUse() - before
		}()
		if g := <-grown; g < tc.minGrown || g > tc.maxGrown {
			t.Errorf("%s: the stack in use grew by %d bytes, want %d to %d", tc.name, g, tc.minGrown, tc.maxGrown)
		}
	}
}

//go:noinline
func small() { _ = index }

// TestMakeConcurrently calls Make from many goroutines at once: under -race,
// it must touch nothing they share.
func TestMakeConcurrently(t *testing.T) {
	const callers = 8
	done := make(chan struct{})
	for range callers {
		go func() {
			defer func() { done <- struct{}{} }()
			Make()
		}()
	}
	for range callers {
		<-done
	}
}

func stackInUse() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.StackInuse
}
