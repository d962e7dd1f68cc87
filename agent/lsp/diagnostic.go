package lsp

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Severity is how bad a diagnostic is, as LSP numbers it: Error first.
type Severity int

// The severities of LSP's DiagnosticSeverity; a diagnostic without one
// counts as an error (the protocol leaves it to the client).
const (
	SeverityError   Severity = 1
	SeverityWarning Severity = 2
	SeverityInfo    Severity = 3
	SeverityHint    Severity = 4
)

func (s Severity) String() string {
	switch s {
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	case SeverityHint:
		return "hint"
	}
	return "error"
}

// normal is s with an absent or unknown severity counted as an error.
func (s Severity) normal() Severity {
	if s < SeverityError || s > SeverityHint {
		return SeverityError
	}
	return s
}

// Diagnostic is one problem a server reported in a file.
type Diagnostic struct {
	// Path is the file's absolute path.
	Path string `json:"path"`
	// Line and Col are 1-based (LSP's are 0-based; Col counts what the
	// server counts, UTF-16 units by default).
	Line     int      `json:"line"`
	Col      int      `json:"col"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	// Source is the tool that found it ("compiler", "go vet"), "" if unsaid.
	Source string `json:"source,omitempty"`
}

// MaxShown is how many diagnostics a tool result lists; the rest are
// counted.
const MaxShown = 20

// Sort orders diagnostics as a result lists them: errors, then warnings,
// then infos and hints, each by file, line and column.
func Sort(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.Severity.normal(), b.Severity.normal()), strings.Compare(a.Path, b.Path),
			cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}

// Counts are diagnostics counted by severity.
type Counts struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	// Others are infos and hints.
	Others int `json:"others"`
}

// CountOf counts ds by severity.
func CountOf(ds []Diagnostic) Counts {
	var c Counts
	for _, d := range ds {
		switch d.Severity.normal() {
		case SeverityError:
			c.Errors++
		case SeverityWarning:
			c.Warnings++
		default:
			c.Others++
		}
	}
	return c
}

// String says the counts in words: "2 errors, 1 warning".
func (c Counts) String() string {
	var parts []string
	for _, p := range []struct {
		n    int
		noun string
	}{{c.Errors, "error"}, {c.Warnings, "warning"}, {c.Others, "info/hint"}} {
		if p.n > 0 {
			parts = append(parts, plural(p.n, p.noun))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// List writes ds, sorted, one per line as `path:line:col severity message
// (source)`, paths shown by rel, at most max of them and then a line
// counting those left out.
func List(ds []Diagnostic, max int, rel func(string) string) string {
	ds = slices.Clone(ds)
	Sort(ds)
	var b strings.Builder
	for i, d := range ds {
		if i == max {
			fmt.Fprintf(&b, "… %d more left out (%s)\n", len(ds)-max, CountOf(ds[max:]))
			break
		}
		fmt.Fprintf(&b, "%s:%d:%d %s %s", rel(d.Path), d.Line, d.Col, d.Severity.normal(), oneLine(d.Message))
		if d.Source != "" {
			fmt.Fprintf(&b, " (%s)", d.Source)
		}
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// oneLine joins a multi-line message into one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
