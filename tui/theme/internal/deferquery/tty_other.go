//go:build !unix

package deferquery

// On other systems termenv does not query at init: nothing to defer.
func stdoutIsTerminal() bool { return false }
