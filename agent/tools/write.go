package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/humanize"
)

// newFileMode is the permission of a file write creates.
const newFileMode fs.FileMode = 0o644

// WriteDetails describe what a write call did, for the UI.
type WriteDetails struct {
	// Path is the file written, resolved.
	Path string `json:"path"`
	// Bytes and Lines measure the content written.
	Bytes int `json:"bytes"`
	Lines int `json:"lines"`
	// Created is set when the file did not exist before.
	Created bool `json:"created"`
	// Diff is the unified diff from the old content ("" for a new file or
	// when it could not be worked out).
	Diff string `json:"diff,omitempty"`
}

type writeTool struct {
	ws workspace
	d  Diagnoser // WithDiagnostics
}

// Write returns the write tool, which creates or overwrites a file of the
// workspace, creating its parent directories.
func Write(workspace string, opts ...Option) agent.Tool {
	return writeTool{ws: newWorkspace(workspace), d: optionsOf(opts).diagnoser}
}

var writeSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"path": {"type": "string", "description": "Path to the file to write (relative to the workspace or absolute)."},
		"content": {"type": "string", "description": "Content to write to the file."}
	},
	"required": ["path", "content"],
	"additionalProperties": false
}`)

func (writeTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{
		Name: "write",
		Description: "Write content to a file. Creates the file if it doesn't exist, overwrites it if it does. " +
			"Automatically creates parent directories. Use edit to change part of an existing file.",
		Parameters: writeSchema,
	}
}

// Describe reports the file the call writes, with the diff it would make.
func (t writeTool) Describe(args map[string]any) Access {
	p, content := stringArg(args, "path"), stringArg(args, "content")
	verb := "write"
	a := t.ws.access(p, true, "")
	if tg, err := t.ws.locate(p); err == nil {
		before, exists := oldContent(tg.path)
		if !exists {
			verb = "create"
		}
		a.Diff = unifiedDiff(t.ws, tg.path, before, content)
	}
	a.Summary = fmt.Sprintf("%s %s (%d lines, %s)", verb, clip(p, summaryLen), countLines(content),
		humanize.Bytes(int64(len(content))))
	return a
}

// oldContent is the text a write would replace at path, "" when there is
// none; exists reports whether the path exists at all.
func oldContent(path string) (string, bool) {
	if _, err := os.Lstat(path); err != nil {
		return "", false
	}
	raw, err := os.ReadFile(path)
	if err != nil || len(raw) > maxDiffInput || looksBinary(raw[:min(len(raw), sniffLen)]) {
		return "", true
	}
	return string(raw), true
}

func (t writeTool) Execute(ctx context.Context, _ string, args map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
	target, refused := t.ws.confine(ctx, stringArg(args, "path"))
	if refused != nil {
		return *refused, nil
	}
	path, content := target.path, stringArg(args, "content")
	mode, created := newFileMode, false
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		created = true
	case err != nil:
		return agent.ErrorResult(fmt.Sprintf("cannot write %s: %v", path, err)), nil
	case info.IsDir():
		return agent.ErrorResult(fmt.Sprintf("cannot write %s: it is a directory", path)), nil
	case !info.Mode().IsRegular():
		return agent.ErrorResult(fmt.Sprintf("cannot write %s: it is %s", path, typeName(info.Mode()))), nil
	default:
		mode = info.Mode().Perm()
	}
	before, _ := oldContent(path)
	if err := writeAtomic(path, []byte(content), mode); err != nil {
		return agent.ErrorResult(fmt.Sprintf("cannot write %s: %v", path, err)), nil
	}
	d := WriteDetails{Path: path, Bytes: len(content), Lines: countLines(content), Created: created}
	verb := "Wrote"
	if created {
		verb = "Created"
	} else {
		d.Diff = unifiedDiff(t.ws, path, before, content)
	}
	return agent.ToolResult{
		Content: []agent.Content{agent.Text(withDiagnostics(ctx, t.d, path, content,
			fmt.Sprintf("%s %s: %d bytes, %d lines", verb, path, d.Bytes, d.Lines)))},
		Details: d,
	}, nil
}
