package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/steer-tui/steer/agent"
)

// defaultLsLimit is how many entries ls lists when the model sets no limit.
const defaultLsLimit = 500

// LsDetails describes what an ls call returned, for the UI.
type LsDetails struct {
	// Path is the directory listed, resolved against the workspace.
	Path string `json:"path"`
	// Total counts the directory's entries; Shown those in the result.
	Total int `json:"total"`
	Shown int `json:"shown"`
	// Truncated is set when the limit or maxBytes left entries out.
	Truncated bool `json:"truncated"`
}

type lsTool struct{ ws workspace }

// Ls returns the ls tool, which lists one directory of the workspace.
func Ls(workspace string) agent.Tool { return lsTool{ws: newWorkspace(workspace)} }

var lsSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"path": {"type": "string", "description": "Directory to list, relative to the workspace or absolute (default: the workspace root)."},
		"limit": {"type": "integer", "minimum": 1, "description": "Most entries to return (default 500)."}
	},
	"additionalProperties": false
}`)

func (lsTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{
		Name: "ls",
		Description: fmt.Sprintf("List a directory's contents: every entry including dotfiles, sorted "+
			"alphabetically, directories marked with a trailing /. Returns at most %d entries (raise limit "+
			"for more) or %d KB.", defaultLsLimit, maxBytes/1024),
		Parameters: lsSchema,
	}
}

// Describe reports the directory the call lists.
func (t lsTool) Describe(args map[string]any) Access {
	p := stringArg(args, "path")
	if p == "" {
		p = "."
	}
	return t.ws.access(stringArg(args, "path"), false, "ls "+clip(p, summaryLen))
}

func (t lsTool) Execute(ctx context.Context, _ string, args map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
	target, refused := t.ws.confine(ctx, stringArg(args, "path"))
	if refused != nil {
		return *refused, nil
	}
	dir := target.path
	limit := max(intArg(args, "limit", defaultLsLimit), 1)

	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return agent.ErrorResult(fmt.Sprintf("directory not found: %s", dir)), nil
	case err != nil:
		return agent.ErrorResult(fmt.Sprintf("cannot list %s: %v", dir, err)), nil
	case !info.IsDir():
		return agent.ErrorResult(fmt.Sprintf("%s is a file, not a directory; use read to see it", dir)), nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return agent.ErrorResult(fmt.Sprintf("cannot list %s: %v", dir, err)), nil
	}

	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
		if isDir(dir, e) {
			names[i] += "/"
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := strings.Compare(strings.ToLower(a), strings.ToLower(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})

	details := LsDetails{Path: dir, Total: len(names)}
	if len(names) == 0 {
		return agent.ToolResult{Content: []agent.Content{agent.Text("(empty directory)")}, Details: details}, nil
	}
	var b strings.Builder
	for _, name := range names[:min(limit, len(names))] {
		if b.Len()+len(name)+1 > maxBytes {
			break
		}
		b.WriteString(name)
		b.WriteByte('\n')
		details.Shown++
	}
	text := strings.TrimSuffix(b.String(), "\n")
	if details.Shown < details.Total {
		details.Truncated = true
		hint := ""
		if details.Shown == limit {
			hint = "; raise limit to see more"
		}
		text += fmt.Sprintf("\n\n[showing %d of %d entries%s]", details.Shown, details.Total, hint)
	}
	return agent.ToolResult{Content: []agent.Content{agent.Text(text)}, Details: details}, nil
}

// isDir reports whether an entry is a directory or a symlink to one.
func isDir(dir string, e fs.DirEntry) bool {
	if e.Type()&fs.ModeSymlink == 0 {
		return e.IsDir()
	}
	info, err := os.Stat(filepath.Join(dir, e.Name()))
	return err == nil && info.IsDir()
}
