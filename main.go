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
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/anthropic"
	"github.com/steer-tui/steer/agent/llm/openai"
	"github.com/steer-tui/steer/agent/llm/scripted"
	"github.com/steer-tui/steer/agent/rpc"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/runner/headless"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/assets"
	"github.com/steer-tui/steer/persistence"
	"github.com/steer-tui/steer/tui"
	"github.com/steer-tui/steer/tui/theme"

	"github.com/charmbracelet/lipgloss"
	xterm "github.com/charmbracelet/x/term"
)

// Exit statuses of SPEC §10.
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
  steer help                          this text

Flags (before or after the command):
  --model REF        provider/model or model id (default: the first configured model)
  --scenario NAME    scripted-provider scenario: a name from assets/scenarios or a JSON file
  --pace N           scripted-provider chunks per second (default 60; 0 = as fast as possible)
  --config FILE      configuration file (default: ~/.config/steer/config.json, if present)
  --state-dir DIR    state directory (default: $STEER_STATE_DIR, else $XDG_STATE_HOME/steer)
  --session ID       resume a saved session (see 'steer sessions')
  --continue         resume the latest session of this directory
  --json             run: print the event stream as JSON lines; sessions: print JSON
  --timeout D        run: give up after D (e.g. 90s, 10m); exit status 3

Real providers come from the config file or ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY;
with none, steer runs offline on the scripted provider.
Exit status: 0 completed, 1 failed, 2 usage or configuration error, 3 timed out, 130 interrupted.
`

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
}

func main() {
	os.Exit(realMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func realMain(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, err := parseArgs(argv)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return exitOK
		}
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	var prompt string
	switch opts.command {
	case "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	case "sessions":
		return sessions(opts, stdout, stderr)
	case "run":
		if prompt, err = headless.ReadPrompt(opts.args, stdin); err != nil {
			fmt.Fprintf(stderr, "steer: %v\n", err)
			return exitUsage
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rt, closeAll, err := build(opts)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	defer closeAll()
	switch opts.command {
	case "":
		return runTUI(ctx, rt, opts)
	case "run":
		return headless.Run(ctx, rt, prompt, headless.RunOptions{JSON: opts.json, Timeout: opts.timeout}, stdout, stderr)
	default: // "rpc"
		err := rpc.NewServer(rt, stdin, stdout).Serve(ctx)
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

// parseArgs accepts the global flags before and after the command.
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
	switch o.command {
	case "", "help":
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

// build wires the runtime: the configuration and its providers (the scripted
// one always among them), the state directory with its lock, log and
// database, the tools and the session.
func build(o options) (*runner.Runtime, func(), error) {
	cfg, err := config.Load(o.config, os.Getenv)
	if err != nil {
		return nil, nil, err
	}
	providers, err := providersFrom(cfg, o)
	if err != nil {
		return nil, nil, err
	}
	stateDir, err := resolveStateDir(o.stateDir)
	if err != nil {
		return nil, nil, err
	}
	workspace, err := os.Getwd()
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read the working directory: %w", err)
	}
	store, err := persistence.Open(stateDir, persistence.Options{})
	if err != nil {
		return nil, nil, err
	}
	logger, closeLog, err := openLog(stateDir)
	if err != nil {
		store.Close()
		return nil, nil, err
	}
	closeAll := func() {
		if err := store.Close(); err != nil {
			logger.Error("closing the database failed", "error", err)
		}
		closeLog()
	}
	model := o.model
	if model == "" {
		model = cfg.Model
	}
	rt, err := runner.New(context.Background(), runner.Options{
		Providers:    providers,
		Model:        model,
		Resolve:      resolverFor(cfg, providers),
		Tools:        tools.New(workspace),
		SystemPrompt: assets.SystemPrompt(),
		Workspace:    workspace,
		Thinking:     cfg.Agent.Thinking,
		SteeringMode: cfg.Agent.SteeringMode,
		FollowUpMode: cfg.Agent.FollowUpMode,
		Logger:       logger,
		Store:        store,
		Session:      o.session,
		Continue:     o.cont,
	})
	if err != nil {
		closeAll()
		return nil, nil, err
	}
	logger.Info("steer started", "command", o.command, "config", cfg.Source, "model", rt.State().Model.Ref(),
		"workspace", workspace, "session", rt.SessionID())
	return rt, closeAll, nil
}

// providersFrom builds each configured provider, then the built-in scripted
// one (with --pace and --scenario) unless the configuration names its own.
func providersFrom(cfg *config.Config, o options) ([]runner.Provider, error) {
	popts := scripted.Options{Pace: o.pace}
	if o.scenario != "" {
		sc, err := scripted.LoadScenario(o.scenario)
		if err != nil {
			return nil, fmt.Errorf("--scenario: %w", err)
		}
		popts.Scenario = sc
	}
	offline := scripted.New(popts).Stream
	var out []runner.Provider
	hasScripted := false
	for _, p := range cfg.Providers {
		stream, err := streamOf(p, offline)
		if err != nil {
			return nil, fmt.Errorf("provider %s: %w", p.Name, err)
		}
		hasScripted = hasScripted || p.Name == scripted.ProviderName
		out = append(out, runner.Provider{Name: p.Name, Models: p.Models, Stream: stream})
	}
	if !hasScripted {
		out = append(out, runner.Provider{Name: scripted.ProviderName, Models: scripted.Models(), Stream: offline})
	}
	return out, nil
}

// streamOf builds the client of one configured provider. Until failover
// rotates auth profiles, the first profile's key is used.
func streamOf(p config.Provider, offline agent.StreamFn) (agent.StreamFn, error) {
	key := ""
	if len(p.Profiles) > 0 {
		key = p.Profiles[0].Key.Reveal()
	}
	switch p.API {
	case config.APIOpenAIChat:
		c, err := openai.New(openai.Config{BaseURL: p.BaseURL, APIKey: key, IdleTimeout: p.Timeout, Headers: p.Headers})
		if err != nil {
			return nil, err
		}
		return c.Stream, nil
	case config.APIAnthropicMessages:
		c, err := anthropic.New(anthropic.Config{BaseURL: p.BaseURL, APIKey: key, IdleTimeout: p.Timeout, Headers: p.Headers})
		if err != nil {
			return nil, err
		}
		return c.Stream, nil
	default:
		return offline, nil
	}
}

// resolverFor resolves references through the configuration (aliases,
// catalogue models); the scripted models resolve as they are.
func resolverFor(cfg *config.Config, providers []runner.Provider) func(string) (agent.Model, error) {
	return func(ref string) (agent.Model, error) {
		if ref == "" || strings.HasPrefix(ref, scripted.ProviderName+"/") {
			return runner.ResolveModel(providers, ref)
		}
		m, err := cfg.ResolveModel(ref)
		if err != nil {
			if sm, serr := runner.ResolveModel(providers, ref); serr == nil {
				return sm, nil
			}
			return agent.Model{}, fmt.Errorf("--model: %w", err)
		}
		return m, nil
	}
}

// resolveStateDir picks the state directory (SPEC §10) and creates it 0700.
func resolveStateDir(flagValue string) (string, error) {
	dir := flagValue
	if dir == "" {
		dir = os.Getenv("STEER_STATE_DIR")
	}
	if dir == "" {
		base := os.Getenv("XDG_STATE_HOME")
		if base == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", fmt.Errorf("no state directory: set --state-dir or STEER_STATE_DIR (%v)", err)
			}
			base = filepath.Join(home, ".local", "state")
		}
		dir = filepath.Join(base, "steer")
	}
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o700); err != nil {
		return "", fmt.Errorf("cannot use state directory %s: %v", dir, err)
	}
	return dir, nil
}

// openLog appends JSON lines to the state directory's log file.
func openLog(stateDir string) (*slog.Logger, func(), error) {
	path := filepath.Join(stateDir, "logs", "steer.log")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot write the log %s: %v", path, err)
	}
	return slog.New(slog.NewJSONHandler(f, nil)), func() { _ = f.Close() }, nil
}

// sessions prints the saved sessions, or one transcript with "show ID". It
// opens the database read-only when another steer owns the directory.
func sessions(o options, stdout, stderr io.Writer) int {
	stateDir, err := resolveStateDir(o.stateDir)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	store, err := persistence.Open(stateDir, persistence.Options{})
	var locked *persistence.LockedError
	if errors.As(err, &locked) {
		store, err = persistence.Open(stateDir, persistence.Options{ReadOnly: true})
	}
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	defer store.Close()
	if len(o.args) == 2 {
		return headless.ShowSession(context.Background(), store, o.args[1], o.json, stdout, stderr)
	}
	return headless.ListSessions(context.Background(), store, o.json, stdout, stderr)
}

// runTUI runs the terminal UI (SPEC §9) until the user quits. Dark or light
// is decided here, once, before the program owns the terminal: NO_COLOR
// gives the plain theme, COLORFGBG is trusted when set, and only otherwise
// is the terminal asked (lipgloss.HasDarkBackground). The scripted provider
// keeps --pace, whose default (scripted.DefaultPace) makes answers stream
// visibly.
func runTUI(ctx context.Context, rt *runner.Runtime, o options) int {
	if !xterm.IsTerminal(os.Stdin.Fd()) || !xterm.IsTerminal(os.Stdout.Fd()) {
		fmt.Fprintln(os.Stderr, "steer: the terminal UI needs a terminal; use 'steer run PROMPT' or 'steer rpc' from scripts")
		return exitUsage
	}
	th := theme.Dark()
	switch dark, known := colorFGBGDark(os.Getenv("COLORFGBG")); {
	case os.Getenv("NO_COLOR") != "":
		th = theme.Plain()
	case known && !dark, !known && !lipgloss.HasDarkBackground():
		th = theme.Light()
	}
	lipgloss.SetHasDarkBackground(th.Name != "light")
	welcome := "Type a message and press Enter; keep typing while the agent works to steer it. " +
		"/help lists the keys and commands."
	if rt.State().Model.Provider == "scripted" {
		welcome = "Offline on the scripted provider: no key needed. Try hello, list files, " +
			"read README.md or run sleep 5 (and type while it runs). /help lists the keys and commands."
	}
	err := tui.Run(ctx, rt, tui.Options{
		Theme: th, Profile: lipgloss.ColorProfile(), Welcome: welcome, Sessions: tui.SessionsOf(rt),
	})
	switch {
	case ctx.Err() != nil:
		return exitCancelled
	case err != nil:
		fmt.Fprintf(os.Stderr, "steer: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// colorFGBGDark reads COLORFGBG ("15;0": foreground;background): a
// background of 0–6 or 8 is dark. known is false when the variable is unset
// or unreadable.
func colorFGBGDark(v string) (dark, known bool) {
	if v == "" {
		return false, false
	}
	fields := strings.Split(v, ";")
	var bg int
	if _, err := fmt.Sscanf(fields[len(fields)-1], "%d", &bg); err != nil {
		return false, false
	}
	return bg <= 6 || bg == 8, true
}
