// Package runner is the orchestration shell and the one facade that the
// terminal UI and the headless modes talk to. A Runtime is one session's:
// it resolves the model, owns the session's Agent, runs each request
// through the lanes, the context guard and the attempt loop with failover,
// saves what happens, and starts sub-agents (the task tool). A Host is a
// front end's runtime over several sessions of one process: the current
// one, which takes input and whose events it forwards, and those whose runs
// go on in the background after the user switched away; steer run and steer
// rpc use a Runtime, the TUI a Host.
package runner
