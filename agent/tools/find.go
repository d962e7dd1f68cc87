package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/steer-tui/steer/agent"
)

// defaultFindLimit is how many paths find returns when the model sets no
// limit.
const defaultFindLimit = 1000

// FindDetails describe what a find call returned, for the UI.
type FindDetails struct {
	// Path is the directory searched, resolved.
	Path string `json:"path"`
	// Shown counts the paths in the result.
	Shown int `json:"shown"`
	// LimitReached is set when more paths may match than were returned.
	LimitReached bool `json:"limitReached"`
}

type findTool struct{ ws workspace }

// Find returns the find tool, which lists the paths under a directory of the
// workspace that match a glob, leaving out what .gitignore ignores.
func Find(workspace string) agent.Tool { return findTool{ws: newWorkspace(workspace)} }

var findSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"pattern": {"type": "string", "minLength": 1, "description": "Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'."},
		"path": {"type": "string", "description": "Directory to search in (default: the workspace root)."},
		"limit": {"type": "integer", "minimum": 1, "description": "Maximum number of results (default: 1000)."}
	},
	"required": ["pattern"],
	"additionalProperties": false
}`)

func (findTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{
		Name: "find",
		Description: fmt.Sprintf("Search for files by glob pattern. Returns matching paths relative to the search "+
			"directory, directories with a trailing /. A pattern without / matches names at any depth ('*.go'); "+
			"one with / matches the whole relative path ('src/**/*.go'). Respects .gitignore and skips .git. "+
			"Output is truncated to %d results (see limit) or %d KB, whichever is hit first.",
			defaultFindLimit, maxBytes/1024),
		Parameters: findSchema,
	}
}

// Describe reports the directory the call searches.
func (t findTool) Describe(args map[string]any) Access {
	p := stringArg(args, "path")
	return t.ws.access(p, false, fmt.Sprintf("find %s in %s",
		clip(stringArg(args, "pattern"), summaryLen), clip(orWorkspace(p), summaryLen)))
}

func (t findTool) Execute(ctx context.Context, _ string, args map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
	target, refused := t.ws.confine(ctx, stringArg(args, "path"))
	if refused != nil {
		return *refused, nil
	}
	dir, pattern := target.path, stringArg(args, "pattern")
	limit := max(intArg(args, "limit", defaultFindLimit), 1)
	glob, ok := newGlob(pattern)
	if !ok {
		return agent.ErrorResult(fmt.Sprintf("invalid glob pattern %q (use *, **, ?, [abc] and {a,b})", pattern)), nil
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return agent.ErrorResult(notADirectory(dir, err)), nil
	}

	details := FindDetails{Path: dir}
	var b strings.Builder
	full := false
	err := walk(ctx, t.ws.root, dir, func(rel string, d fs.DirEntry) error {
		if !glob.match(rel) {
			return nil
		}
		if d.IsDir() {
			rel += "/"
		}
		if details.Shown == limit || b.Len()+len(rel)+1 > maxBytes {
			details.LimitReached, full = details.Shown == limit, details.Shown < limit
			return errStopWalk
		}
		b.WriteString(rel)
		b.WriteByte('\n')
		details.Shown++
		return nil
	})
	if err != nil {
		return agent.ErrorResult(fmt.Sprintf("find stopped: %v", err)), nil
	}
	if details.Shown == 0 {
		return agent.ToolResult{Content: []agent.Content{agent.Text("No files found matching pattern")}, Details: details}, nil
	}
	text := strings.TrimSuffix(b.String(), "\n")
	switch {
	case details.LimitReached:
		text += fmt.Sprintf("\n\n[%d results limit reached. Use limit=%d for more, or refine pattern]", limit, limit*2)
	case full:
		details.LimitReached = true
		text += fmt.Sprintf("\n\n[%d KB output limit reached after %d results; refine pattern or path]", maxBytes/1024, details.Shown)
	}
	return agent.ToolResult{Content: []agent.Content{agent.Text(text)}, Details: details}, nil
}

// orWorkspace names the workspace for an empty path.
func orWorkspace(p string) string {
	if p == "" {
		return "the workspace"
	}
	return p
}

// notADirectory says why dir cannot be searched.
func notADirectory(dir string, err error) string {
	switch {
	case os.IsNotExist(err):
		return fmt.Sprintf("directory not found: %s", dir)
	case err != nil:
		return fmt.Sprintf("cannot search %s: %v", dir, err)
	}
	return fmt.Sprintf("%s is a file, not a directory; use read to see it", dir)
}
