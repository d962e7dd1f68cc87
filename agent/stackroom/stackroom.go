// Package stackroom gives a goroutine stack room before it enters deep
// library code, so that the runtime does not grow its stack from inside that
// code.
//
// Each time the runtime grows a goroutine's stack it walks every frame on
// it, decoding each function's stack tables from the function's start, and
// those tables are read from the binary into the process. A fresh goroutine
// starts with 2 KB; SQLite (C translated to Go, whose functions are giant)
// and the provider SDKs' reflective JSON encoders take it to 16-64 KB, so the
// runtime walks their frames several times on the way. For one answer,
// `steer run` read 7.6 MB of the binary's function tables that way, and 5.7
// MB once those goroutines made room first: its peak RSS fell by 1.3 MB
// (README, Performance). Growing the stack while it holds only the caller's
// few frames costs one short walk and Size bytes of stack.
package stackroom

// Size is the stack Make leaves free: what one SQLite statement or one
// request built by an SDK needs, measured.
const Size = 24 << 10

// index is a variable so that the compiler keeps room's frame.
var index = 0

// Make grows the calling goroutine's stack now if less than Size is free.
// Call it first in a goroutine that is about to enter deep code.
func Make() { room(index) }

// room has a frame of Size bytes. Its result, read from the frame, keeps the
// compiler from dropping the frame; it means nothing.
//
//go:noinline
func room(i int) byte {
	var frame [Size]byte
	return frame[i]
}
