// Package tools provides steer's built-in tools, read, ls and bash, which let
// the model inspect and act on one workspace directory.
package tools

import (
	"encoding/json"
	"path/filepath"

	"github.com/steer-tui/steer/agent"
)

// New returns every built-in tool, rooted at workspace.
func New(workspace string) []agent.Tool {
	return []agent.Tool{Read(workspace), Ls(workspace), Bash(workspace)}
}

// resolvePath turns a path the model gave into one the OS can open: absolute
// paths stay as they are, relative ones are taken from the workspace and an
// empty one means the workspace itself. Paths outside the workspace are
// allowed; the tools are not a sandbox.
func resolvePath(workspace, p string) string {
	switch {
	case p == "":
		return filepath.Clean(workspace)
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	default:
		return filepath.Join(workspace, p)
	}
}

// stringArg returns the string argument name, or "" when it is absent.
func stringArg(args map[string]any, name string) string {
	s, _ := args[name].(string)
	return s
}

// numberArg returns the numeric argument name, or def when it is absent.
// Arguments decoded from JSON hold float64; the other cases serve callers
// that build args by hand.
func numberArg(args map[string]any, name string, def float64) float64 {
	switch v := args[name].(type) {
	case float64:
		return v
	case int:
		return float64(v)
	case json.Number:
		if f, err := v.Float64(); err == nil {
			return f
		}
	}
	return def
}

// intArg is numberArg for integer arguments.
func intArg(args map[string]any, name string, def int) int {
	return int(numberArg(args, name, float64(def)))
}
