// Command steer is a terminal app for working with an LLM agent that uses
// tools, and the headless front ends of the same runtime: `steer run` for one
// prompt and `steer rpc` for pi's JSON-lines RPC protocol.
//
// main parses flags, builds the runtime from its parts and maps outcomes to
// exit statuses; everything below it returns errors as data.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/steer-tui/steer/agent/llm/scripted"
	"github.com/steer-tui/steer/agent/rpc"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/runner/headless"
	"github.com/steer-tui/steer/tui/sanitize"

	xterm "github.com/charmbracelet/x/term"
)

// Exit statuses of SPEC §10; a quit signal exits with 128 + its number.
const (
	exitOK        = headless.ExitOK
	exitFailed    = headless.ExitFailed
	exitUsage     = headless.ExitUsage
	exitCancelled = headless.ExitCancelled
)

const usage = `steer — chat with an LLM agent that uses tools, and steer it while it works.

Usage:
  steer [flags]                       the terminal UI
  steer run [--json] [flags] PROMPT   answer one prompt headless (PROMPT "-" or absent: read stdin)
  steer rpc [flags]                   pi's RPC protocol: JSON commands on stdin, events on stdout
  steer sessions [--json]             list saved sessions, newest first
  steer sessions show ID [--json]     print a session's transcript
  steer version                       the version and the revision it was built from
  steer help [COMMAND]                this text, or a command's

Flags (before or after the command):
  --model REF        provider/model or model id (default: the configured model)
  --scenario NAME    scripted-provider scenario: a name from assets/scenarios or a JSON file
  --pace N           scripted-provider chunks per second (default 60; 0 = as fast as possible)
  --config FILE      configuration file (default: ~/.config/steer/config.json, if present)
  --state-dir DIR    state directory (default: $STEER_STATE_DIR, else $XDG_STATE_HOME/steer)
  --session ID       resume a saved session (see 'steer sessions')
  --continue         resume the latest session of this directory
  --theme T          terminal UI: dark, light or auto (default: the config's ui.theme, else auto)
  --json             run: print the event stream as JSON lines; sessions: print JSON
  --timeout D        run: give up after D (e.g. 90s, 10m); exit status 3
  --version          print the version

Real providers come from the config file or ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY;
with none, steer runs offline on the scripted provider.
Exit status: 0 completed, 1 failed, 2 usage or configuration error, 3 timed out,
130 interrupted (SIGINT), 129 and 143 for SIGHUP and SIGTERM.
`

const runUsage = `Usage: steer run [flags] PROMPT
       steer run [flags] [-] < FILE

Answers one prompt without a screen. The answer streams to stdout; on stderr go
each tool call with its output as it arrives (up to 16 KiB per call), failed
saves, and why a run stopped. PROMPT is the arguments joined by spaces; "-" or
no PROMPT reads it from stdin (at most agent.maxInputBytes, 4 MiB by default).

Flags:
  --json             print the event stream as JSON lines instead of the answer
  --timeout D        abort the run after D (e.g. 90s, 10m): exit status 3
  --model, --scenario, --pace, --config, --state-dir, --session, --continue:
                     as for steer (see 'steer help')

Exit status: 0 completed, 1 failed (the model's error, a failed save), 2 usage or
configuration error, 3 timed out, 130 interrupted (SIGINT), 129 SIGHUP, 143 SIGTERM.
`

const rpcUsage = `Usage: steer rpc [flags]

Speaks pi's RPC protocol: one JSON command per line on stdin, one response per
command and the session's events as JSON lines on stdout. This is how editors,
scripts and tests drive steer; see SPEC §12 or pi's docs/rpc.md for the commands.
It ends at the end of stdin (after the active run), on {"type":"quit"}, or on a
signal, which aborts the active run first.

Flags: --model, --scenario, --pace, --config, --state-dir, --session, --continue,
as for steer (see 'steer help').

Exit status: 0 done, 1 the output or input failed, 2 usage or configuration
error, 130 SIGINT, 129 SIGHUP, 143 SIGTERM.
`

const sessionsUsage = `Usage: steer sessions [--json]
       steer sessions show ID [--json]

Lists the saved sessions of every workspace, newest first, or prints one
session's transcript (with --json: pi's message objects). Works while another
steer uses the state directory.

Flags:
  --json             print JSON
  --state-dir DIR    state directory (default: $STEER_STATE_DIR, else $XDG_STATE_HOME/steer)

Exit status: 0, 1 the database could not be read, 2 no such session or an
unusable state directory.
`

// helpFor is the help text of a command ("" is steer's own).
func helpFor(command string) string {
	switch command {
	case "run":
		return runUsage
	case "rpc":
		return rpcUsage
	case "sessions":
		return sessionsUsage
	}
	return usage
}

// usageError is a mistake in the command line or configuration: one line on
// stderr and exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// options are the parsed command line.
type options struct {
	command  string
	args     []string
	model    string
	scenario string
	pace     float64
	stateDir string
	json     bool
	timeout  time.Duration
	session  string
	cont     bool
	config   string
	theme    string
	version  bool
}

func main() {
	os.Exit(realMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func realMain(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, err := parseArgs(argv)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, helpFor(opts.command))
			return exitOK
		}
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	switch {
	case opts.version || opts.command == "version":
		fmt.Fprint(stdout, versionText(debug.ReadBuildInfo()))
		return exitOK
	case opts.command == "help":
		if len(opts.args) == 1 {
			fmt.Fprint(stdout, helpFor(opts.args[0]))
		} else {
			fmt.Fprint(stdout, usage)
		}
		return exitOK
	case opts.command == "sessions":
		return sessions(opts, stdout, stderr)
	}

	sig := catchSignals()
	defer sig.stop()
	cfg, err := config.Load(opts.config, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	var prompt string
	if opts.command == "run" {
		limit := cfg.Agent.MaxInputBytes
		if limit == 0 {
			limit = runner.DefaultMaxInputBytes
		}
		if prompt, err = headless.ReadPrompt(opts.args, stdin, limit); err != nil {
			fmt.Fprintf(stderr, "steer: %v\n", err)
			return exitUsage
		}
	}
	a, err := build(cfg, opts)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	sig.attach(a.rt)
	if s := sig.received(); s != nil { // during start-up: start nothing
		a.close()
		return exitStatus(s)
	}
	status := runCommand(sig.ctx, a, cfg, opts, prompt, stdin, stdout, stderr)
	a.close()
	if s := sig.received(); s != nil {
		return exitStatus(s)
	}
	return status
}

// runCommand runs the TUI, `steer run` or `steer rpc` until it ends or ctx
// is cancelled by a signal.
func runCommand(ctx context.Context, a *app, cfg *config.Config, o options, prompt string, stdin io.Reader, stdout, stderr io.Writer) int {
	switch o.command {
	case "":
		return runTUI(ctx, a, themeFor(cfg, o))
	case "run":
		ro := headless.RunOptions{JSON: o.json, Timeout: o.timeout}
		if f, ok := stderr.(*os.File); ok && xterm.IsTerminal(f.Fd()) {
			ro.Clean = func(s string) string { return sanitize.String(s, sanitize.Options{}) }
		}
		if a.continued != "" {
			fmt.Fprintf(stderr, "steer: %s\n", a.continued)
		}
		return headless.Run(ctx, a.rt, prompt, ro, stdout, stderr)
	default: // "rpc"
		if a.continued != "" {
			fmt.Fprintf(stderr, "steer: %s\n", a.continued)
		}
		err := rpc.NewServer(a.rt, stdin, stdout).Serve(ctx)
		switch {
		case ctx.Err() != nil:
			return exitCancelled
		case err != nil:
			fmt.Fprintf(stderr, "steer: %v\n", err)
			return exitFailed
		}
		return exitOK
	}
}

// themeFor is the TUI's theme setting: --theme, else the config's ui.theme.
func themeFor(cfg *config.Config, o options) string {
	if o.theme != "" {
		return o.theme
	}
	return cfg.UI.Theme
}

// parseArgs accepts the global flags before and after the command. With
// flag.ErrHelp, o.command says whose help was asked for.
func parseArgs(argv []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("steer", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.model, "model", "", "")
	fs.StringVar(&o.scenario, "scenario", "", "")
	fs.Float64Var(&o.pace, "pace", scripted.DefaultPace, "")
	fs.StringVar(&o.stateDir, "state-dir", "", "")
	fs.BoolVar(&o.json, "json", false, "")
	fs.DurationVar(&o.timeout, "timeout", 0, "")
	fs.StringVar(&o.session, "session", "", "")
	fs.BoolVar(&o.cont, "continue", false, "")
	fs.StringVar(&o.config, "config", "", "")
	fs.StringVar(&o.theme, "theme", "", "")
	fs.BoolVar(&o.version, "version", false, "")
	if err := fs.Parse(argv); err != nil {
		return o, err
	}
	rest := fs.Args()
	if len(rest) > 0 {
		o.command = rest[0]
		args, err := interleaved(fs, rest[1:])
		if err != nil {
			return o, err
		}
		o.args = args
	}
	if o.version {
		return o, nil
	}
	switch o.command {
	case "":
	case "help":
		switch {
		case len(o.args) > 1:
			return o, usagef("usage: steer help [COMMAND]")
		case len(o.args) == 1 && helpFor(o.args[0]) == usage:
			return o, usagef("no help for %q: the commands are run, rpc and sessions", o.args[0])
		}
	case "version":
		if len(o.args) > 0 {
			return o, usagef("version takes no arguments")
		}
	case "rpc":
		if len(o.args) > 0 {
			return o, usagef("rpc takes no arguments, got %q", strings.Join(o.args, " "))
		}
	case "run":
	case "sessions":
		if n := len(o.args); !(n == 0 || n == 2 && o.args[0] == "show") {
			return o, usagef("usage: steer sessions [--json] | steer sessions show ID [--json]")
		}
	default:
		return o, usagef("unknown command %q; see 'steer help'", o.command)
	}
	if o.json && o.command != "run" && o.command != "sessions" {
		return o, usagef("--json applies to 'steer run' and 'steer sessions' only")
	}
	if o.theme != "" {
		if o.command != "" {
			return o, usagef("--theme applies to the terminal UI only")
		}
		if _, err := config.ParseTheme(o.theme); err != nil {
			return o, usagef("--theme: %v", err)
		}
	}
	if o.pace < 0 {
		return o, usagef("--pace must be 0 or more, got %v", o.pace)
	}
	if o.timeout < 0 {
		return o, usagef("--timeout must be positive, got %v", o.timeout)
	}
	if o.session != "" && o.cont {
		return o, usagef("--session and --continue exclude each other")
	}
	return o, nil
}

// interleaved parses flags anywhere among the arguments and returns the
// others in order; everything after "--" is an argument.
func interleaved(fs *flag.FlagSet, rest []string) ([]string, error) {
	var args []string
	for len(rest) > 0 {
		if err := fs.Parse(rest); err != nil {
			return nil, err
		}
		after := fs.Args()
		if consumed := rest[:len(rest)-len(after)]; len(consumed) > 0 && consumed[len(consumed)-1] == "--" {
			return append(args, after...), nil
		}
		if len(after) == 0 {
			break
		}
		args, rest = append(args, after[0]), after[1:]
	}
	return args, nil
}
