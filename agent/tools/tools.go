// Package tools provides steer's built-in tools, read, ls and bash, which let
// the model inspect and act on one workspace directory.
//
// # Secrets in the environment
//
// A command the bash tool runs inherits steer's environment minus every
// variable that holds a key, so that `env` or `echo $ANTHROPIC_API_KEY` cannot
// copy a provider key into the transcript, the database or the model's
// context. Two rules hide a variable: its name looks like a secret's
// (IsSecretEnv: *_API_KEY, *_TOKEN, *_SECRET, *_PASSWORD and a few more), or
// it was passed to WithHiddenEnv — the caller passes every variable an auth
// profile reads its key from, whatever its name:
//
//	tools.New(workspace, tools.WithHiddenEnv(cfg.SecretEnvNames()...))
//
// The tools are not a sandbox: a command can still read another process's
// environment (/proc/<pid>/environ of its parent, steer, for one).
package tools

import (
	"encoding/json"
	"path/filepath"

	"github.com/steer-tui/steer/agent"
)

// Option configures the built-in tools.
type Option func(*options)

type options struct {
	hiddenEnv map[string]bool
}

// WithHiddenEnv hides the environment variables names from the commands the
// tools run, on top of those IsSecretEnv names; give it every variable a
// configured auth profile reads its key from ("apiKeyEnv"). Names are
// matched exactly, as the OS does. Several calls add up.
func WithHiddenEnv(names ...string) Option {
	return func(o *options) {
		if o.hiddenEnv == nil {
			o.hiddenEnv = map[string]bool{}
		}
		for _, n := range names {
			o.hiddenEnv[n] = true
		}
	}
}

func optionsOf(opts []Option) options {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// New returns every built-in tool, rooted at workspace and configured by
// opts.
func New(workspace string, opts ...Option) []agent.Tool {
	return []agent.Tool{Read(workspace), Ls(workspace), Bash(workspace, opts...)}
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
