//go:build unix

package screen

import (
	"io"
	"os"
	"os/signal"
	"syscall"
)

// WatchSize calls resized with out's size now and whenever the terminal
// changes size (SIGWINCH), from a goroutine of its own that sleeps until
// then, until stop is called. When out is no terminal it does nothing.
func WatchSize(out io.Writer, resized func(width, height int)) (stop func()) {
	if _, ok := terminalFd(out); !ok {
		return func() {}
	}
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	done := make(chan struct{})
	go func() {
		for {
			if w, h, ok := Size(out); ok {
				resized(w, h)
			}
			select {
			case <-done:
				return
			case <-winch:
			}
		}
	}()
	return func() {
		signal.Stop(winch)
		close(done)
	}
}
