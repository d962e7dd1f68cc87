// Package runner is the orchestration shell and the one facade that the
// terminal UI and the headless modes talk to: it resolves the model, owns the
// session's Agent and hands commands to it. Failover, lanes and persistence
// join here as they land; callers keep talking to Runtime.
package runner
