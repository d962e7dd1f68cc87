package lsp

import (
	"fmt"
	"strings"
	"time"
)

// Report is what one wait for a file's diagnostics came to.
type Report struct {
	// Server is the server's command name ("gopls"); Path the file.
	Server, Path string
	// Published says the server published diagnostics for the file's new
	// text (Diagnostics, none when it is clean) Waited after the change.
	Published   bool
	Diagnostics []Diagnostic
	Waited      time.Duration
	// Bound is how long the wait could last.
	Bound time.Duration
	// Started is how long the server took to start, when this call waited
	// for its start.
	Started time.Duration
	// Failed is why the server failed ("" when it did not), Stderr what
	// it wrote there: its first line and its last.
	Failed string
	Stderr []string
	// Cancelled says the call was cancelled before an answer.
	Cancelled bool
}

// Text is the report as a tool result says it, paths shown by rel, at
// most max diagnostics listed:
//
//	gopls: 1 error (after 0.4 s):
//	main.go:3:9 error undefined: x (compiler)
//
//	gopls: no diagnostics (after 0.3 s; started in 4.1 s)
//	gopls published nothing within 3.0 s
//	gopls failed: exited (signal: killed)
func (r Report) Text(max int, rel func(string) string) string {
	switch {
	case r.Failed != "":
		s := r.Server + " failed: " + r.Failed
		if len(r.Stderr) > 0 {
			s += "\nits stderr: " + strings.Join(r.Stderr, " | ")
		}
		return s
	case r.Cancelled:
		return r.Server + ": diagnostics not awaited (cancelled)"
	case !r.Published:
		s := fmt.Sprintf("%s published nothing within %s", r.Server, seconds(r.Bound))
		if r.Started > 0 {
			s = fmt.Sprintf("%s started in %s, then published nothing within %s", r.Server, seconds(r.Started), seconds(r.Bound))
		}
		return s
	}
	when := "after " + seconds(r.Waited)
	if r.Started > 0 {
		when += "; started in " + seconds(r.Started)
	}
	if len(r.Diagnostics) == 0 {
		return fmt.Sprintf("%s: no diagnostics (%s)", r.Server, when)
	}
	return fmt.Sprintf("%s: %s (%s):\n%s", r.Server, CountOf(r.Diagnostics), when, List(r.Diagnostics, max, rel))
}
