package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/steer-tui/steer/agent"
)

// Diagnoser is what the file tools ask language servers (package lsp's
// Manager is one): write and edit tell it what they wrote and append its
// answer to their result, and the diagnostics tool asks it. Its methods are
// called on the tool call's goroutine, may take seconds, and must return
// within their own bounds whatever the servers do; ctx is the call's.
type Diagnoser interface {
	// AfterWrite is told that path (absolute) now holds content, which
	// write or edit has just written; it returns a paragraph for the
	// tool's result ("" when no server handles the file).
	AfterWrite(ctx context.Context, path, content string) string
	// Warm starts the server of path's language, without waiting, if it
	// has not started: read calls it, as an edit often follows a read.
	Warm(path string)
	// Diagnostics is the diagnostics of path (absolute), or with "" of
	// every file the servers have published; an error is a result the
	// model reads as one (no server handles the file, it cannot be read).
	Diagnostics(ctx context.Context, path string) (string, error)
}

// WithDiagnostics gives write and edit a Diagnoser, whose diagnostics of
// the file written their result carries, and adds the diagnostics tool.
func WithDiagnostics(d Diagnoser) Option {
	return func(o *options) { o.diagnoser = d }
}

// withDiagnostics is text followed by what d says of path now holding
// content, when it says anything.
func withDiagnostics(ctx context.Context, d Diagnoser, path, content, text string) string {
	if d == nil {
		return text
	}
	if p := d.AfterWrite(ctx, path, content); p != "" {
		return text + "\n\n" + p
	}
	return text
}

type diagnosticsTool struct {
	ws workspace
	d  Diagnoser
}

// Diagnostics returns the diagnostics tool, which reports what the
// language servers of d found in a file of the workspace, or in every file
// they have published for; it changes nothing.
func Diagnostics(workspace string, d Diagnoser) agent.Tool {
	return diagnosticsTool{ws: newWorkspace(workspace), d: d}
}

var diagnosticsSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"path": {"type": "string", "description": "File to check (relative to the workspace or absolute); omit it for every file the language servers have reported on."}
	},
	"additionalProperties": false
}`)

func (diagnosticsTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{
		Name: "diagnostics",
		Description: "Report the errors and warnings a language server (gopls, typescript-language-server, pyright, " +
			"rust-analyzer…) finds in a file, errors first. write and edit already report them for the file they change; " +
			"use this for a file changed otherwise, or without a path for every file reported on so far.",
		Parameters: diagnosticsSchema,
	}
}

// Describe reports the file the call reads, if any: it never changes
// anything, so it never asks.
func (t diagnosticsTool) Describe(args map[string]any) Access {
	p := stringArg(args, "path")
	if p == "" {
		return Access{Tool: "diagnostics", Summary: "diagnostics of every file reported on"}
	}
	return t.ws.access(p, false, "diagnostics "+clip(p, summaryLen))
}

func (t diagnosticsTool) Execute(ctx context.Context, _ string, args map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
	path := ""
	if p := stringArg(args, "path"); p != "" {
		target, refused := t.ws.confine(ctx, p)
		if refused != nil {
			return *refused, nil
		}
		path = target.path
	}
	text, err := t.d.Diagnostics(ctx, path)
	if err != nil {
		return agent.ErrorResult(fmt.Sprintf("diagnostics: %v", err)), nil
	}
	return agent.ToolResult{Content: []agent.Content{agent.Text(text)}}, nil
}
