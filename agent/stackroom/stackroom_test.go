package stackroom

import (
	"runtime"
	"testing"
)

// TestMakeGrowsTheStack calls Make first thing in a fresh goroutine (which
// starts with a few KB of stack) and checks that the stack memory in use
// grew by at least Size: the compiler kept the frame, and the runtime grew
// the stack to hold it. A small function in the same place grows it by less.
// The measure is the whole process's, so each is tried up to three times
// after collecting garbage (which frees cached stacks).
func TestMakeGrowsTheStack(t *testing.T) {
	const trials = 3
	for _, tc := range []struct {
		name  string
		call  func()
		grows bool
	}{
		{"Make", Make, true},
		{"a small function", small, false},
	} {
		var seen []int64
		for range trials {
			g := stackGrowth(tc.call)
			seen = append(seen, g)
			if (g >= Size) == tc.grows {
				break
			}
		}
		if g := seen[len(seen)-1]; (g >= Size) != tc.grows {
			t.Errorf("%s: the stack in use grew by %v bytes, want %s %d", tc.name, seen, map[bool]string{true: "at least", false: "less than"}[tc.grows], Size)
		}
	}
}

// stackGrowth is how much the stack memory in use grows while a fresh
// goroutine calls call.
func stackGrowth(call func()) int64 {
	runtime.GC()
	grown := make(chan int64)
	go func() {
		before := stackInUse()
		call()
		grown <- stackInUse() - before
	}()
	return <-grown
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

func stackInUse() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.StackInuse)
}
