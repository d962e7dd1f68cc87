//go:build !unix

package screen

import "io"

// WatchSize calls resized with out's size now, from a goroutine of its own;
// these systems send no signal when the terminal changes size. When out is
// no terminal it does nothing.
func WatchSize(out io.Writer, resized func(width, height int)) (stop func()) {
	if w, h, ok := Size(out); ok {
		go resized(w, h)
	}
	return func() {}
}
