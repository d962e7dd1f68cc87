// Package tools provides steer's built-in tools — read, write, edit, ls,
// find, grep and bash, with pi's names and argument shapes, which let the
// model inspect and change one workspace directory, fetch, which reads a
// web page, todo, the model's list of work (todo.go), and diagnostics, what
// a language server finds in a file (diagnostics.go; write and edit append
// it to their result) — and the approval gate that decides which calls run.
//
// # Workspace confinement
//
// The file tools resolve every path they are given — relative to the
// workspace, "..", absolute, and through every symbolic link, a dangling
// one included — and refuse one that leads outside the workspace unless the
// call was approved (see Gate). Walks (find, grep) never follow a symbolic
// link. bash runs what it is told, so the approval policy treats it as a
// call that changes things; WithSandbox lets the kernel confine where its
// commands write and whether they reach the network (package sandbox).
//
// # Approval
//
// Each tool says, before a call runs, what the call would touch (Access:
// paths, outside the workspace or not, changing things or not, a summary
// and a diff). Decide, a pure function of the Mode and the Access, says
// whether it runs, asks or is refused; Gate wraps the tools to apply it and
// puts questions to an Approver:
//
//	ts := tools.Gate(tools.New(ws, opts...), tools.ModeAsk, approver)
//
// # The network
//
// fetch reads http and https pages only, and connects only to public
// addresses: every address a host resolves to is checked before a
// connection is made and again as it is dialled, for each redirect too, so
// loopback, private and link-local services stay out of reach unless
// WithFetchAllowPrivate(true). The policy treats a fetch as a call that
// changes things, so that ask asks, by domain (WebFetch(domain:host)).
//
// # Bounded output
//
// Every result is bounded: read pages a file, ls, find and grep stop at a
// count and at 50 KB, and bash keeps the head and the tail of a long output
// in memory while the whole of it streams to a file (WithOutputDir), so a
// command printing gigabytes costs little memory and a result the model
// can read.
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
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools/sandbox"
)

// Option configures the built-in tools.
type Option func(*options)

type options struct {
	hiddenEnv []string
	outputDir string
	readable  []string       // WithReadableDirs (readable.go)
	sandbox   sandbox.Policy // WithSandbox (bash_sandbox.go)
	// fetchPrivate is WithFetchAllowPrivate (fetch.go).
	fetchPrivate bool
	// diagnoser is WithDiagnostics (diagnostics.go).
	diagnoser Diagnoser
}

// WithOutputDir keeps the full output of every bash command whose result
// had to be cut in a file under dir (created when needed), and names that
// file in the result. Give it a directory of the state directory; without
// it, output beyond the result's cap is dropped.
func WithOutputDir(dir string) Option {
	return func(o *options) { o.outputDir = dir }
}

// WithHiddenEnv hides the environment variables names from the commands the
// tools run, on top of those IsSecretEnv names; give it every variable a
// configured auth profile reads its key from ("apiKeyEnv"). Names are
// matched exactly, as the OS does. Several calls add up.
func WithHiddenEnv(names ...string) Option {
	return func(o *options) { o.hiddenEnv = append(o.hiddenEnv, names...) }
}

func optionsOf(opts []Option) options {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// New returns every built-in tool, rooted at workspace and configured by
// opts, in the order the model is told about them.
// The diagnostics tool is there only WithDiagnostics.
func New(workspace string, opts ...Option) []agent.Tool {
	ts := []agent.Tool{
		Read(workspace, opts...), Write(workspace, opts...), Edit(workspace, opts...), Ls(workspace),
		Find(workspace), Grep(workspace), Bash(workspace, opts...), Fetch(opts...), Todo(),
	}
	if d := optionsOf(opts).diagnoser; d != nil {
		ts = append(ts, Diagnostics(workspace, d))
	}
	return ts
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

// boolArg returns the boolean argument name, or false when it is absent.
func boolArg(args map[string]any, name string) bool {
	b, _ := args[name].(bool)
	return b
}

// summaryLen is the longest argument text an Access summary quotes.
const summaryLen = 120

// clip flattens s to one line of at most n runes, ending in "…" when cut.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
