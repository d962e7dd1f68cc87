// Package deferquery keeps Bubble Tea v1's package init from asking the
// terminal for its background colour, so that theme.Detect can ask with a
// short deadline instead.
//
// Bubble Tea v1's init calls lipgloss.HasDarkBackground, which sends OSC 11
// and a cursor-position query and waits up to 5 s (termenv.OSCTimeout, a
// constant) for an answer that some terminals never send, before main even
// starts. termenv skips the query when TERM is "dumb", so this package's
// init sets TERM to "dumb" and package theme's init, which runs after Bubble
// Tea's, puts it back with Restore.
//
// The order is Go's: packages are initialised in import-path order among
// those whose imports are ready, so this one, which imports only syscall and
// sorts before "golang.org/x/sys/unix" (which termenv, and so lipgloss and
// Bubble Tea, wait for), runs first. It must keep importing only syscall;
// a test of package theme checks the order in a built binary.
package deferquery

import "syscall"

var (
	saved  string
	hadVar bool
	masked bool
)

func init() {
	if !stdoutIsTerminal() {
		return // termenv asks only a terminal
	}
	saved, hadVar = syscall.Getenv("TERM")
	if err := syscall.Setenv("TERM", "dumb"); err == nil {
		masked = true
	}
}

// Restore puts TERM back as it was; it is safe to call more than once.
func Restore() {
	if !masked {
		return
	}
	masked = false
	if hadVar {
		_ = syscall.Setenv("TERM", saved)
	} else {
		_ = syscall.Unsetenv("TERM")
	}
}

// Masked reports whether TERM is still hidden (for tests).
func Masked() bool { return masked }
