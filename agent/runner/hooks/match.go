package hooks

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// ClaudeNames maps steer's built-in tools to Claude Code's names for the
// same tools, which matchers accept too: a hooks file written for Claude
// Code's "Bash" runs for steer's bash.
var ClaudeNames = map[string]string{
	"bash":  "Bash",
	"read":  "Read",
	"write": "Write",
	"edit":  "Edit",
	"grep":  "Grep",
	"find":  "Glob",
	"ls":    "LS",
	"task":  "Task",
	"fetch": "WebFetch",
	"todo":  "TodoWrite",
}

// Matcher chooses what a hook runs for, as Claude Code's matchers do: ""
// and "*" match everything; a name or a |-list of names (letters, digits,
// '_' and '|' only) matches exactly, case-sensitively; anything else is a
// regular expression, found anywhere in the name ("Notebook.*",
// "mcp__memory__.*").
type Matcher struct {
	all   bool
	names []string
	re    *regexp.Regexp
}

var plainNames = regexp.MustCompile(`^[A-Za-z0-9_|]+$`)

// CompileMatcher reads a matcher; the error says why a regular expression
// does not compile.
func CompileMatcher(s string) (Matcher, error) {
	switch {
	case s == "" || s == "*":
		return Matcher{all: true}, nil
	case plainNames.MatchString(s):
		return Matcher{names: strings.Split(s, "|")}, nil
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return Matcher{}, fmt.Errorf("matcher %q is not a valid regular expression: %v", s, err)
	}
	return Matcher{re: re}, nil
}

// Match reports whether the matcher chooses name: steer's tool name, or
// the Claude Code name ClaudeNames gives it.
func (m Matcher) Match(name string) bool {
	if m.all {
		return true
	}
	candidates := []string{name}
	if c, ok := ClaudeNames[name]; ok {
		candidates = append(candidates, c)
	}
	for _, c := range candidates {
		if m.re != nil && m.re.MatchString(c) || slices.Contains(m.names, c) {
			return true
		}
	}
	return false
}
