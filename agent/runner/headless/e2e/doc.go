// Package e2e holds the end-to-end tests of steer's command line: they build
// the binary once, then run it the way a shell would, offline on the
// scripted provider in private state directories. They cover what only a
// process shows: flags and exit statuses, help and version, configuration
// and start-up errors, what reaches stdout and stderr and when, timeouts,
// and quit signals in `steer run`, `steer rpc` and the terminal UI.
//
// The slow ones (tool output over seconds, timeouts, signals, tmux) are
// skipped with -short.
package e2e
