package inspector

import (
	"context"
	"io"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

// Source is the runtime facade a live inspector reads and clears through:
// *runner.Host satisfies it, and so do the TUI's and rpc's runtimes, which
// embed it. Its methods may do IO (SQLite reads of the shared ledger,
// quarantines and run records); they are called from tea.Cmd goroutines
// and rpc's command loop, never from the TUI's Update.
type Source interface {
	// Profiles views every configured auth profile from the shared ledger.
	Profiles(ctx context.Context) ([]runner.ProfileView, error)
	// ClearProfile ends profile id's cooldown or disabled window.
	ClearProfile(ctx context.Context, id string) error
	// Engines views the context engines and their quarantines.
	Engines(ctx context.Context) (runner.EnginesView, error)
	// ClearQuarantine lifts engine's quarantine; false when it had none.
	ClearQuarantine(ctx context.Context, engine string) (bool, error)
	// Lanes views the lanes of every live steer process.
	Lanes(ctx context.Context) (runner.LanesView, error)
	// Runs lists session sessionID's latest runs ("" every session's) with
	// their attempts, newest first, at most limit (0: the store's default);
	// runner.ErrNoRecords without a state directory.
	Runs(ctx context.Context, sessionID string, limit int) ([]runner.RunView, error)
	// MCPServers are the MCP servers' states, in configuration order; no
	// IO.
	MCPServers() []runner.MCPServer
	// LSPServers are the language servers' states, in configuration
	// order; no IO. RestartLSP starts one again.
	LSPServers() []runner.LSPServer
	RestartLSP(language string) error
	// ConfigView is the configuration the process started with; no IO.
	ConfigView() runner.ConfigView
	// ContextFiles are the context files the next request carries, in
	// order (reads the disk).
	ContextFiles() []runner.ContextFileView
	// Hooks are the configured hooks with their last outcomes; no IO.
	Hooks() []runner.HookView
	// ContextBreakdown is the next request broken down (reads the skills
	// and context files from disk).
	ContextBreakdown() runner.ContextBreakdown
	// Permissions are the permission rules in force (no IO); RemoveRule
	// takes one out of its file and out of force.
	Permissions() runner.PermissionsView
	RemoveRule(kind, text, source string) error
}

var _ Source = (*runner.Host)(nil)

// Query says who reads a live view.
type Query struct {
	// Session is the session a screen shows (the TUI); "" is a client
	// asking about every session (rpc).
	Session string
	// Recent bounds a list of the latest things (the trace's runs); 0 is
	// the store's default.
	Recent int
}

// Saved is what `steer inspect` reads from: the state directory's database
// and the configuration, with no runtime.
type Saved struct {
	State *runner.StateView
	// Profiles are the configured auth profiles, in the configuration's
	// order; Preferred is --profile, which must be one of them.
	Profiles  []ProfileRef
	Preferred string
	// Engine is agent.contextEngine ("" the built-in one); Engines the
	// configuration's contextEngines.
	Engine  string
	Engines []runner.EngineRef
	// MCP starts the configured MCP servers, waits until each is ready or
	// failed (bounded by its timeout), reports them and closes them, as
	// `steer mcp list` does; nil when nothing can start them.
	MCP func(ctx context.Context) ([]runner.MCPServer, error)
	// LSP is the language servers a session here would have, configured
	// and detected on PATH, none started; nil when nothing can tell.
	LSP func() ([]runner.LSPServer, error)
	// Config is the configuration read; nil when it was not.
	Config *runner.ConfigView
	// ContextFiles finds the current directory's context files, as a
	// session there would; nil when nothing can.
	ContextFiles func() ([]runner.ContextFileView, error)
	// Permissions are the configuration's permission rules, as a session
	// in the current directory would have them; nil when nothing can.
	Permissions func() (runner.PermissionsView, error)
	Now         time.Time
}

// ProfileRef names a configured auth profile and its provider.
type ProfileRef struct{ ID, Provider string }

// Frame is what a table is drawn at: the clock, and the page shown of an
// inspector with pages (the trace's runs: 0 the newest).
type Frame struct {
	Now  time.Time
	Page int
}

// UsageError is a saved read or clear refused for how it was asked (an
// unknown profile, an engine with no quarantine): `steer inspect` exits
// with its usage status rather than as a failure.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Def defines an inspector whose view is a V. Read, ReadSaved, Print and
// Table are required; the others have the defaults their docs say. Read,
// ReadSaved and Clear's funcs may do IO and run off the TUI's Update
// goroutine (in a tea.Cmd, on rpc's command loop, in `steer inspect`);
// Table runs in Update and, like Print, does none.
type Def[V any] struct {
	// Name is the rpc `inspect {what}` name and the `steer inspect`
	// subcommand; Command the TUI's slash command ("" is Name).
	Name, Command string
	// Summary says what the slash command shows, in a few words; Usage
	// what `steer inspect NAME` shows, on one line of steer's help; Args
	// the subcommand's arguments besides --json ("[--clear ID]"); Help
	// the paragraph `steer help inspect` has on it.
	Summary, Usage, Args, Help string
	// Read is the view of a running runtime (the TUI, rpc).
	Read func(ctx context.Context, src Source, q Query) (V, error)
	// ReadSaved is the view of the state directory (`steer inspect`); a
	// refusal is a *UsageError.
	ReadSaved func(ctx context.Context, s Saved) (V, error)
	// JSON is what `steer inspect NAME --json` prints (nil: the view);
	// Answer the data of rpc's answer (nil: JSON's).
	JSON, Answer func(v V) any
	// Print writes the view for `steer inspect NAME`.
	Print func(w io.Writer, v V, now time.Time)
	// Table is what the TUI shows of the view at f; pure and cheap (it is
	// rebuilt every second while the inspector is open).
	Table func(v V, f Frame) Table
	// Clear is the clear key's, when a row's Target can be cleared.
	Clear *Clear
}

// Clear is how an inspector clears a row's Target (a cooldown, a
// quarantine), for every steer process on the state directory.
type Clear struct {
	// What is what is cleared: the help says "clear What", the TUI's
	// confirmation "Clear the What of TARGET?", its outcome and `steer
	// inspect --clear`'s "Cleared the What of TARGET.".
	What string
	// Consequence says, under the confirmation, what clearing does.
	Consequence string
	// Live clears through a running runtime (the TUI's clear key).
	Live func(ctx context.Context, src Source, target string) error
	// Saved clears in the state directory (`steer inspect NAME --clear
	// TARGET`); a refusal is a *UsageError.
	Saved func(ctx context.Context, s Saved, target string) error
	// Verb and Done are the key's word and its past ("" is "clear",
	// "cleared"). With a Verb, the Target is the thing itself (a rule):
	// "Remove the rule deny Bash(rm:*)?".
	Verb, Done string
}

// Action is the clear key's word: "clear", or the Verb.
func (c *Clear) Action() string {
	if c.Verb == "" {
		return "clear"
	}
	return c.Verb
}

// Past is what a clear that happened says: "cleared", or Done.
func (c *Clear) Past() string {
	if c.Verb == "" {
		return "cleared"
	}
	return c.Done
}

// Object names what clearing target acts on: "the cooldown of TARGET", or
// with a Verb "the rule TARGET".
func (c *Clear) Object(target string) string {
	if c.Verb == "" {
		return "the " + c.What + " of " + target
	}
	return "the " + c.What + " " + target
}

// Inspector is one registered inspector: a Def with its view type erased,
// so that the registry can hold every kind. Its methods hand views around
// as the values Read and ReadSaved return (nil: the empty view); give an
// Inspector only views it made.
type Inspector struct {
	name, command  string
	summary, usage string
	args, help     string
	clear          *Clear
	read           func(context.Context, Source, Query) (any, error)
	readSaved      func(context.Context, Saved) (any, error)
	json, answer   func(any) any
	print          func(io.Writer, any, time.Time)
	table          func(any, Frame) Table
}

// New makes d an Inspector (its view type erased) for All, which is where
// it is registered.
func New[V any](d Def[V]) *Inspector {
	if d.Command == "" {
		d.Command = d.Name
	}
	if d.JSON == nil {
		d.JSON = func(v V) any { return v }
	}
	if d.Answer == nil {
		d.Answer = d.JSON
	}
	return &Inspector{name: d.Name, command: d.Command, summary: d.Summary, usage: d.Usage,
		args: d.Args, help: d.Help, clear: d.Clear,
		read:      func(ctx context.Context, src Source, q Query) (any, error) { return d.Read(ctx, src, q) },
		readSaved: func(ctx context.Context, s Saved) (any, error) { return d.ReadSaved(ctx, s) },
		json:      func(v any) any { return d.JSON(view[V](v)) },
		answer:    func(v any) any { return d.Answer(view[V](v)) },
		print:     func(w io.Writer, v any, now time.Time) { d.Print(w, view[V](v), now) },
		table:     func(v any, f Frame) Table { return d.Table(view[V](v), f) },
	}
}

// view is v as a V; nil (no view read yet) is V's zero value, the empty
// view a table is drawn from while loading.
func view[V any](v any) V {
	x, _ := v.(V)
	return x
}

// Name is the rpc `inspect` name and the `steer inspect` subcommand.
func (i *Inspector) Name() string { return i.name }

// Command is the TUI's slash command, without its slash.
func (i *Inspector) Command() string { return i.command }

// Summary says what the slash command shows.
func (i *Inspector) Summary() string { return i.summary }

// Usage says what `steer inspect NAME` shows, on one line.
func (i *Inspector) Usage() string { return i.usage }

// Args are `steer inspect NAME`'s arguments besides --json.
func (i *Inspector) Args() string { return i.args }

// Help is the paragraph `steer help inspect` has on it.
func (i *Inspector) Help() string { return i.help }

// Clear is how its rows' Targets are cleared; nil when nothing clears.
func (i *Inspector) Clear() *Clear { return i.clear }

// Read reads the view of a running runtime.
func (i *Inspector) Read(ctx context.Context, src Source, q Query) (any, error) {
	return i.read(ctx, src, q)
}

// ReadSaved reads the view of the state directory.
func (i *Inspector) ReadSaved(ctx context.Context, s Saved) (any, error) { return i.readSaved(ctx, s) }

// JSON is what `--json` prints of view v.
func (i *Inspector) JSON(v any) any { return i.json(v) }

// Answer is rpc's answer for view v.
func (i *Inspector) Answer(v any) any { return i.answer(v) }

// Print writes view v for `steer inspect`.
func (i *Inspector) Print(w io.Writer, v any, now time.Time) { i.print(w, v, now) }

// Table is what the TUI shows of view v at f.
func (i *Inspector) Table(v any, f Frame) Table { return i.table(v, f) }
