package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools/sandbox"
)

// WithSandbox runs every bash command under p (see package sandbox): with
// writes confined, a command may write only the workspace, a temp
// directory of the tool's own (TMPDIR), p.Writable and the paths its call
// names in allowWrite. The zero Policy, the default, runs commands as
// before. The binary must call sandbox.MaybeRunChild first thing, and
// RemoveTempDirs when it exits.
func WithSandbox(p sandbox.Policy) Option {
	return func(o *options) { o.sandbox = p }
}

// allowWriteArg is the bash argument that asks for more writable paths for
// one command.
const allowWriteArg = "allowWrite"

// AllowWritePaths returns the paths a bash call asks to write besides what
// its sandbox allows (its allowWrite argument), as the model wrote them,
// for the approval dialog to name; nil when it asks for none.
func AllowWritePaths(args map[string]any) []string {
	var paths []string
	switch v := args[allowWriteArg].(type) {
	case []any:
		for _, p := range v {
			if s, ok := p.(string); ok {
				paths = append(paths, s)
			}
		}
	case []string:
		paths = append(paths, v...)
	}
	return paths
}

// sandboxSchema is bashSchema with allowWrite, for a tool whose commands
// have their writes confined.
var sandboxSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"command": {"type": "string", "description": "Shell command, run with bash -c in the workspace."},
		"timeout": {"type": "number", "exclusiveMinimum": 0, "description": "Seconds after which the command is killed (default: no timeout)."},
		"allowWrite": {"type": "array", "items": {"type": "string"}, "description": "Absolute paths outside the workspace this command must write (an existing file, or the directory to create files in); the user is asked for each."}
	},
	"required": ["command"],
	"additionalProperties": false
}`)

// sandboxNote is what the model is told about a sandbox that confines
// writes.
const sandboxNote = " Commands run in a sandbox: they may write only the workspace and $TMPDIR; " +
	"a write it stops fails with \"Permission denied\" and the result says \"blocked by the sandbox\". " +
	"To write elsewhere, name the paths in allowWrite and the user is asked."

// networkNote is what the model is told about a sandbox without network.
const networkNote = " Commands have no network access."

// sandboxed is the command of one call under the tool's sandbox.
func (t bashTool) sandboxed(ctx context.Context, command string, args map[string]any) (*sandbox.Cmd, error) {
	sc := sandbox.Scope{Workspace: t.ws.root, Extra: AllowWritePaths(args)}
	if t.sandbox.ConfinesWrites() {
		dir, err := t.tmp.get()
		if err != nil {
			return nil, fmt.Errorf("cannot make the sandbox's temp directory: %w", err)
		}
		sc.TempDir = dir
	}
	sc.Home, _ = os.UserHomeDir()
	return sandbox.Command(ctx, t.sandbox, sc, "bash", "-c", command)
}

// newCommand is the process of one call: plain bash, or, under a sandbox,
// steer's binary that confines itself and runs bash (boxed is then set, and
// the process must be started through it).
func (t bashTool) newCommand(ctx context.Context, args map[string]any) (cmd *exec.Cmd, boxed *sandbox.Cmd, err error) {
	command := stringArg(args, "command")
	if !t.sandbox.Enabled() {
		return exec.CommandContext(ctx, "bash", "-c", command), nil, nil
	}
	if boxed, err = t.sandboxed(ctx, command, args); err != nil {
		return nil, nil, err
	}
	return boxed.Cmd, boxed, nil
}

// withBlocks adds to a failed command's result the lines saying what the
// sandbox stopped, and how to ask for the paths it kept from being written.
func withBlocks(r agent.ToolResult, boxed *sandbox.Cmd) agent.ToolResult {
	if boxed == nil || !r.IsError || len(r.Content) == 0 {
		return r
	}
	blocks := boxed.Blocked(r.Content[0].Text)
	if len(blocks) == 0 {
		return r
	}
	var lines, grants []string
	for _, b := range blocks {
		lines = append(lines, b.String())
		if b.Grant != "" && !slices.Contains(grants, b.Grant) {
			grants = append(grants, b.Grant)
		}
	}
	if len(grants) > 0 {
		quoted, _ := json.Marshal(grants)
		lines = append(lines, fmt.Sprintf("to ask the user for write access, call bash again with %q: %s", allowWriteArg, quoted))
	}
	r.Content[0].Text += "\n" + strings.Join(lines, "\n")
	return r
}
