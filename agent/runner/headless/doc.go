// Package headless runs steer without a screen: `steer run` (one prompt, its
// answer or its JSON event stream, and an exit status), `steer sessions`
// (saved sessions and transcripts, as text or JSON) and `steer inspect NAME`
// (any registered inspector of agent/runner/inspector, read from the state
// directory).
//
// It also holds what steer's command line says before any front end starts:
// the arguments (ParseArgs), the help texts (Help) and `steer version`
// (VersionText). main wires the runtime and picks the front end; the binary
// tests of the whole command line are in headless/e2e.
package headless

// Exit statuses of SPEC §10.
const (
	ExitOK        = 0
	ExitFailed    = 1
	ExitUsage     = 2
	ExitTimedOut  = 3
	ExitCancelled = 130
)
