package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/steer-tui/steer/agent"
)

const (
	// defaultGrepLimit is how many matches grep returns when the model sets
	// no limit.
	defaultGrepLimit = 100
	// grepLineRunes is the longest line grep shows before cutting it.
	grepLineRunes = 500
	// maxGrepContext bounds the context lines asked for around a match.
	maxGrepContext = 50
)

// GrepDetails describe what a grep call returned, for the UI.
type GrepDetails struct {
	// Path is the file or directory searched, resolved.
	Path string `json:"path"`
	// Matches counts the matching lines in the result.
	Matches int `json:"matches"`
	// LimitReached is set when more lines may match than were returned.
	LimitReached bool `json:"limitReached"`
	// LinesCut is set when long lines were shortened.
	LinesCut bool `json:"linesCut"`
	// Engine is "ripgrep" or "go", the search that ran.
	Engine string `json:"engine"`
}

type grepTool struct {
	ws workspace
	// rg is ripgrep's path, "" to search in Go.
	rg string
}

// Grep returns the grep tool, which searches file contents under a path of
// the workspace for a regular expression or a literal string, leaving out
// what .gitignore ignores. It runs ripgrep when rg is on the PATH and
// searches in Go otherwise; both give the same output.
func Grep(workspace string) agent.Tool {
	rg, _ := exec.LookPath("rg")
	return grepTool{ws: newWorkspace(workspace), rg: rg}
}

var grepSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"pattern": {"type": "string", "minLength": 1, "description": "Search pattern (regex or literal string)."},
		"path": {"type": "string", "description": "Directory or file to search (default: the workspace root)."},
		"glob": {"type": "string", "description": "Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'."},
		"ignoreCase": {"type": "boolean", "description": "Case-insensitive search (default: false)."},
		"literal": {"type": "boolean", "description": "Treat pattern as literal string instead of regex (default: false)."},
		"context": {"type": "integer", "minimum": 0, "maximum": 50, "description": "Number of lines to show before and after each match (default: 0)."},
		"limit": {"type": "integer", "minimum": 1, "description": "Maximum number of matches to return (default: 100)."}
	},
	"required": ["pattern"],
	"additionalProperties": false
}`)

func (grepTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{
		Name: "grep",
		Description: fmt.Sprintf("Search file contents for a pattern (RE2 regular expression syntax, or a literal "+
			"string). Returns matching lines as path:line: text, context lines as path-line- text, relative to "+
			"the search directory. Respects .gitignore; skips binary files and .git. Output is truncated to %d "+
			"matches (see limit) or %d KB, whichever is hit first. Long lines are truncated to %d chars.",
			defaultGrepLimit, maxBytes/1024, grepLineRunes),
		Parameters: grepSchema,
	}
}

// Describe reports the file or directory the call searches.
func (t grepTool) Describe(args map[string]any) Access {
	p := stringArg(args, "path")
	return t.ws.access(p, false, fmt.Sprintf("grep %s in %s",
		clip(stringArg(args, "pattern"), summaryLen), clip(orWorkspace(p), summaryLen)))
}

// grepQuery is one search, its arguments checked.
type grepQuery struct {
	re      *regexp.Regexp
	root    string // file or directory, resolved
	isFile  bool
	glob    *globMatcher
	context int
	limit   int
	// For ripgrep: the pattern as given and its flags.
	pattern             string
	ignoreCase, literal bool
}

func (t grepTool) Execute(ctx context.Context, _ string, args map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
	target, refused := t.ws.confine(ctx, stringArg(args, "path"))
	if refused != nil {
		return *refused, nil
	}
	q, problem := newGrepQuery(target.path, args)
	if problem != "" {
		return agent.ErrorResult(problem), nil
	}
	out := newGrepOutput(q.limit, q.context)
	details := GrepDetails{Path: q.root, Engine: "go"}
	var err error
	if t.rg != "" {
		details.Engine = "ripgrep"
		err = searchRipgrep(ctx, t.rg, q, out)
	} else {
		err = searchGo(ctx, t.ws.root, q, out)
	}
	if err != nil {
		return agent.ErrorResult(fmt.Sprintf("grep failed: %v", err)), nil
	}
	details.Matches, details.LimitReached, details.LinesCut = out.matches, out.limitHit || out.full, out.linesCut
	return agent.ToolResult{Content: []agent.Content{agent.Text(out.text())}, Details: details}, nil
}

// newGrepQuery checks the arguments; problem says what is wrong with them.
func newGrepQuery(root string, args map[string]any) (grepQuery, string) {
	q := grepQuery{
		root:       root,
		context:    min(max(intArg(args, "context", 0), 0), maxGrepContext),
		limit:      max(intArg(args, "limit", defaultGrepLimit), 1),
		pattern:    stringArg(args, "pattern"),
		ignoreCase: boolArg(args, "ignoreCase"),
		literal:    boolArg(args, "literal"),
	}
	expr := q.pattern
	if q.literal {
		expr = regexp.QuoteMeta(expr)
	}
	if q.ignoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return q, fmt.Sprintf("invalid regular expression %q: %v (set literal to search for the text as it is)",
			q.pattern, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	q.re = re
	if g := stringArg(args, "glob"); g != "" {
		m, ok := newGlob(g)
		if !ok {
			return q, fmt.Sprintf("invalid glob %q (use *, **, ?, [abc] and {a,b})", g)
		}
		q.glob = &m
	}
	info, err := os.Stat(root)
	switch {
	case os.IsNotExist(err):
		return q, fmt.Sprintf("path not found: %s", root)
	case err != nil:
		return q, fmt.Sprintf("cannot search %s: %v", root, err)
	}
	q.isFile = !info.IsDir()
	return q, ""
}

// displayName is how a searched file is named in the output: relative to
// the directory searched, or its base name when one file was searched.
func (q grepQuery) displayName(path string) string {
	if q.isFile {
		return filepath.Base(path)
	}
	if rel, err := filepath.Rel(q.root, path); err == nil {
		return filepath.ToSlash(rel)
	}
	return path
}

// grepOutput builds grep's text from the lines the search reports in order,
// within the match limit and maxBytes. Context lines wait until the next
// match or the end of their file, so that none are shown around a match
// that the limit then leaves out.
type grepOutput struct {
	limit, context int
	b              strings.Builder
	pending        []grepLine
	lastFile       string // the line written last
	lastLine       int
	matchFile      string // the match written last
	matchLine      int

	matches  int
	limitHit bool // a match beyond the limit was found
	full     bool // maxBytes was reached
	linesCut bool
}

type grepLine struct {
	file string
	n    int
	text string
}

func newGrepOutput(limit, context int) *grepOutput {
	return &grepOutput{limit: limit, context: context}
}

// match adds a matching line; false means the output is complete and the
// search should stop.
func (o *grepOutput) match(file string, n int, text string) bool {
	if o.matches == o.limit {
		o.limitHit = true
		// Keep the context after the last match shown, not the context
		// before this one.
		kept := o.pending[:0]
		for _, l := range o.pending {
			if l.file == o.matchFile && l.n <= o.matchLine+o.context {
				kept = append(kept, l)
			}
		}
		o.pending = kept
		o.flush()
		return false
	}
	if !o.flush() || !o.write(file, n, ':', text) {
		return false
	}
	o.matches++
	o.matchFile, o.matchLine = file, n
	return true
}

// contextLine adds a line shown around a match.
func (o *grepOutput) contextLine(file string, n int, text string) {
	if o.context > 0 {
		o.pending = append(o.pending, grepLine{file: file, n: n, text: text})
	}
}

// endFile writes the context lines that follow the file's last match.
func (o *grepOutput) endFile() bool { return o.flush() }

func (o *grepOutput) flush() bool {
	for _, l := range o.pending {
		if !o.write(l.file, l.n, '-', l.text) {
			o.pending = o.pending[:0]
			return false
		}
	}
	o.pending = o.pending[:0]
	return true
}

// write adds one output line: "file:n: text" for a match, "file-n- text"
// for context, after a "--" line when it does not follow the line before.
func (o *grepOutput) write(file string, n int, sep byte, text string) bool {
	if o.full {
		return false
	}
	text, cut := cutGrepLine(strings.TrimSuffix(text, "\r"))
	o.linesCut = o.linesCut || cut
	line := fmt.Sprintf("%s%c%d%c %s\n", file, sep, n, sep, text)
	gap := o.context > 0 && o.b.Len() > 0 && (file != o.lastFile || n != o.lastLine+1)
	if gap {
		line = "--\n" + line
	}
	if o.b.Len()+len(line) > maxBytes {
		o.full = true
		return false
	}
	o.b.WriteString(line)
	o.lastFile, o.lastLine = file, n
	return true
}

// cutGrepLine shortens a line to grepLineRunes runes, valid UTF-8.
func cutGrepLine(s string) (string, bool) {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= grepLineRunes {
		return s, false
	}
	n := 0
	for i := range s {
		if n == grepLineRunes {
			return s[:i] + "… [truncated]", true
		}
		n++
	}
	return s, false
}

// text is the result the model reads.
func (o *grepOutput) text() string {
	o.flush()
	if o.matches == 0 {
		return "No matches found"
	}
	s := strings.TrimSuffix(o.b.String(), "\n")
	var notes []string
	if o.limitHit {
		notes = append(notes, fmt.Sprintf("%d matches limit reached. Use limit=%d for more, or refine pattern", o.limit, o.limit*2))
	}
	if o.full {
		notes = append(notes, fmt.Sprintf("%d KB output limit reached after %d matches; refine pattern, glob or path", maxBytes/1024, o.matches))
	}
	if o.linesCut {
		notes = append(notes, fmt.Sprintf("Some lines truncated to %d chars. Use read to see full lines", grepLineRunes))
	}
	if len(notes) > 0 {
		s += "\n\n[" + strings.Join(notes, ". ") + "]"
	}
	return s
}
