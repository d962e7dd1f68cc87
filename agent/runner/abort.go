package runner

import (
	"fmt"
	"os"
	"syscall"
	"time"
)

// Why a run was aborted, as the aborted marker, the run record and the front
// ends word it. The user's own abort (Esc, rpc abort) is agent.AbortedMessage.
const (
	// AbortQuit: steer was asked to quit (Ctrl+C twice, /quit, rpc quit)
	// while the run was active.
	AbortQuit = "steer quit while the run was active"
)

// AbortTimeout is the reason of a run stopped by its time limit.
func AbortTimeout(limit time.Duration) string {
	return fmt.Sprintf("run timed out after %s", limit)
}

// AbortSignal is the reason of a run stopped because steer received sig
// (SIGTERM, SIGHUP: the terminal closed or the ssh connection dropped).
func AbortSignal(sig os.Signal) string {
	name := sig.String()
	if s, ok := sig.(syscall.Signal); ok {
		name = signalName(s)
	}
	return fmt.Sprintf("steer received %s", name)
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGHUP:
		return "SIGHUP (the terminal closed)"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	}
	return s.String()
}
