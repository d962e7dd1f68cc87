// Package childproc is what steer's long-lived child programs (MCP
// servers, language servers) share: a process group of their own, so that
// one kill ends everything a child started and a Ctrl+C in the terminal
// reaches steer rather than the child, and the tail of their stderr, kept
// bounded for the report of a failure.
package childproc
