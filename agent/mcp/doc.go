// Package mcp connects steer to the user's Model Context Protocol servers
// through the official Go SDK: it starts each configured server (a child
// process over stdio, a streamable-HTTP or legacy SSE endpoint), keeps its
// state (starting, ready, failed, needs login, untrusted, disabled) with
// restarts and fault reports, and offers what the servers have: their tools
// as agent.Tools named mcp__<server>__<tool>, their prompts and their
// resources.
//
// # Lifecycle
//
// A Manager is made once per process from the servers' configurations
// (Config) and started with Start, which returns at once: every server
// connects on its own goroutine, bounded by its timeout. Settled waits until
// each has become ready or failed, which headless runs do before their first
// request. A server whose connection ends (a crash, garbage on stdout), or
// that shows no sign of life for its timeout (watchdog.go), is
// marked failed with the last lines of its stderr, its tools are withdrawn
// and it is restarted with backoff, at most MaxRestarts times; Restart
// starts a failed one again by hand. Close ends every session, sending
// DELETE to HTTP servers, and kills each child's whole process group.
//
// # Trust
//
// Servers from a workspace's .mcp.json run commands the repository chose,
// so they start only when that file, by path and content hash, is trusted
// (Trust, TrustStore); until then they are listed as untrusted and never
// started.
//
// # Secrets
//
// ${VAR} and ${VAR:-default} in env, headers and url expand from the
// environment when a server starts (Expand); the expanded values never
// leave this package except to the server itself: errors and stderr lines
// in Status have them replaced with "***", and Config is never logged.
//
// # Authorization
//
// The HTTP transports take Options.HTTPClient, through which an OAuth
// client can be plugged in; a 401 from a server marks it "needs login",
// naming `steer mcp login NAME`.
package mcp
