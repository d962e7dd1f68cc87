// Command steer is a terminal app for working with an LLM agent that uses
// tools, and the headless front ends of the same runtime: `steer run` for one
// prompt and `steer rpc` for pi's JSON-lines RPC protocol.
//
// main parses flags, builds the runtime from its parts (the provider clients
// only it may link, registered by API in providerAPIs) and maps outcomes to
// exit statuses; everything below it returns errors as data. The front ends
// live in tui, agent/runner/headless and agent/rpc, quit signals in
// agent/runner.
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
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	xterm "github.com/charmbracelet/x/term"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm"
	"github.com/steer-tui/steer/agent/llm/scripted"
	"github.com/steer-tui/steer/agent/lsp"
	"github.com/steer-tui/steer/agent/mcp"
	"github.com/steer-tui/steer/agent/rpc"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/runner/discover"
	"github.com/steer-tui/steer/agent/runner/headless"
	"github.com/steer-tui/steer/agent/runner/inspector"
	"github.com/steer-tui/steer/agent/skills"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/agent/tools/sandbox"
	"github.com/steer-tui/steer/assets"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/persistence"
	"github.com/steer-tui/steer/tui"
	"github.com/steer-tui/steer/tui/plain"
	"github.com/steer-tui/steer/tui/sanitize"
)

// Exit statuses of SPEC §10; a quit signal exits with 128 + its number
// (runner.ExitStatus).
const (
	exitOK        = headless.ExitOK
	exitFailed    = headless.ExitFailed
	exitUsage     = headless.ExitUsage
	exitCancelled = headless.ExitCancelled
)

func main() {
	sandbox.MaybeRunChild()
	releaseInitGarbage()
	code := realMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	_ = tools.RemoveTempDirs() // what is left, the next steer removes
	os.Exit(code)
}

// releaseInitGarbage collects what package initialisation left and returns
// its pages to the kernel before any work starts. Chroma, which Glamour
// needs, parses all its lexers and styles at init: 4 MB allocated, most of it
// garbage by now, in heap pages the process would otherwise keep for its
// whole life. It costs about a millisecond and lowers a one-answer `steer
// run`'s peak RSS by 0.5-0.8 MB (README, Performance).
func releaseInitGarbage() { debug.FreeOSMemory() }

func realMain(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, err := headless.ParseArgs(argv, scripted.DefaultPace)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			text, _ := headless.Help(opts.Command)
			fmt.Fprint(stdout, text)
			return exitOK
		}
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	switch {
	case opts.Version || opts.Command == "version":
		fmt.Fprint(stdout, headless.VersionText(debug.ReadBuildInfo()))
		return exitOK
	case opts.Command == "help":
		topic := ""
		if len(opts.Args) == 1 {
			topic = opts.Args[0]
		}
		text, _ := headless.Help(topic)
		fmt.Fprint(stdout, text)
		return exitOK
	case opts.Command == "sessions":
		return sessions(opts, stdin, stdout, stderr)
	case opts.Command == "inspect":
		return inspect(opts, stdout, stderr)
	case opts.Command == "config":
		return configCommand(opts, stdout, stderr)
	case opts.Command == "trust":
		return trustCommand(opts, stdout, stderr)
	case opts.Command == "rewind":
		return rewindCommand(opts, stdout, stderr)
	case opts.Command == "mcp":
		sig := runner.CatchSignals()
		defer sig.Stop()
		return mcpCommand(sig.Context(), opts, stdout, stderr)
	}

	// A closed stdout (`steer run … | head`) is an error to handle, not a
	// signal that kills steer before it saves.
	signal.Ignore(syscall.SIGPIPE)
	sig := runner.CatchSignals()
	defer sig.Stop()
	play, err := rehearsal(opts)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	apis := providerAPIs(play)
	cfg, gate, err := loadConfig(opts, apis, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	if opts.Command != "" {
		sayUntrusted(cfg, stderr)
	}
	var prompt string
	if opts.Command == "run" {
		limit := cfg.Agent.MaxInputBytes
		if limit == 0 {
			limit = runner.DefaultMaxInputBytes
		}
		prompt, err = headless.ReadPromptContext(sig.Context(), opts.Args, stdin, limit)
		if s := sig.Received(); s != nil {
			return runner.ExitStatus(s)
		}
		if err != nil {
			fmt.Fprintf(stderr, "steer: %v\n", err)
			return exitUsage
		}
	}
	// Start-up waits on the database (another opener's migration, a claim
	// while another process holds the write lock): a signal ends it.
	a, err := build(sig.Context(), cfg, gate, apis, opts)
	if s := sig.Received(); s != nil {
		if err == nil {
			a.close(stderr)
		}
		return runner.ExitStatus(s)
	}
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	if opts.Command == "" { // the TUI switches sessions while runs go on
		a.host = runner.NewHost(a.rt)
	} else {
		sayInterruptedRewind(a.rt, stderr)
	}
	sig.Attach(a.runs())
	if s := sig.Received(); s != nil { // since build: start nothing
		a.close(stderr)
		return runner.ExitStatus(s)
	}
	if opts.Command != "" { // headless: every MCP server ready or failed first
		if err := a.rt.WaitMCP(sig.Context()); err != nil { // only a signal ends the wait early
			a.close(stderr)
			if s := sig.Received(); s != nil {
				return runner.ExitStatus(s)
			}
			return exitFailed
		}
		// A model its server lists gets the server's window before the
		// first request (the TUI asks in the background instead; steer
		// run asks once it says the notices, RunOptions.ListModels).
		if opts.Command == "rpc" && a.discovery.Discovers(a.rt.State().Model.Provider) {
			a.rt.RefreshModels(sig.Context())
		}
	}
	status := runCommand(sig.Context(), a, cfg, opts, prompt, stdin, stdout, stderr)
	if !a.close(stderr) && status == exitOK {
		status = exitFailed // a save that failed
	}
	if s := sig.Received(); s != nil {
		return runner.ExitStatus(s)
	}
	return status
}

// sessions is `steer sessions`, which needs only the state directory.
func sessions(o headless.Args, stdin io.Reader, stdout, stderr io.Writer) int {
	stateDir, err := config.StateDir(o.StateDir, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	so := headless.SessionsOptions{StateDir: stateDir, JSON: o.JSON, Context: o.Context, Format: o.Format}
	switch {
	case len(o.Args) >= 2 && o.Args[0] == "search":
		so.Search = strings.Join(o.Args[1:], " ")
	case len(o.Args) >= 3 && o.Args[0] == "rename":
		so.Rename, so.Name = o.Args[1], strings.Join(o.Args[2:], " ")
	case len(o.Args) == 2 && o.Args[0] == "import":
		so.Import, so.Workspace, so.Stdin = o.Args[1], o.Workspace, stdin
	case len(o.Args) == 2 && o.Args[0] == "export":
		so.Export, so.Secrets = o.Args[1], secretValues(os.Environ())
	case len(o.Args) == 2:
		so.Show = o.Args[1]
	}
	return headless.Sessions(context.Background(), so, stdout, stderr)
}

// inspect is `steer inspect NAME`: the configuration names the profiles
// (no key needed) and the engines, the state directory's database says how
// each stands.
func inspect(o headless.Args, stdout, stderr io.Writer) int {
	cfg, gate, err := loadConfig(o, providerAPIs(scripted.Options{}), stderr)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	stateDir, err := config.StateDir(o.StateDir, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	saved := inspector.Saved{Preferred: o.Profile, Engine: cfg.Agent.ContextEngine, Engines: engineRefs(cfg), Now: time.Now(),
		MCP: mcpSnapshot(cfg, gate, stateDir, o, stderr), LSP: lspSnapshot(cfg), ContextFiles: contextFilesHere}
	view := runner.ViewOf(cfg, gate)
	saved.Config = &view
	saved.Permissions = func() (runner.PermissionsView, error) {
		cwd, err := os.Getwd()
		if err != nil {
			return runner.PermissionsView{}, err
		}
		book, err := rulebookFor(cfg, gate, cwd, stateDir, sandboxProtections(cfg))
		return book.View(cfg.Approval(o.Approve, true)), err
	}
	for _, p := range cfg.AllProviders() {
		for _, pr := range p.Profiles {
			saved.Profiles = append(saved.Profiles, inspector.ProfileRef{ID: pr.ID, Provider: p.Name})
		}
	}
	in := headless.InspectOptions{StateDir: stateDir, Name: o.Args[0], JSON: o.JSON, Clear: o.Clear, Saved: saved}
	return headless.Inspect(context.Background(), in, stdout, stderr)
}

// runCommand runs the TUI, `steer run` or `steer rpc` until it ends or ctx
// is cancelled by a signal.
func runCommand(ctx context.Context, a *app, cfg *config.Config, o headless.Args, prompt string, stdin io.Reader, stdout, stderr io.Writer) int {
	if o.Command != "" && a.continued != "" {
		fmt.Fprintf(stderr, "steer: %s\n", a.continued)
	}
	if o.Command != "" && a.modelNote != "" {
		fmt.Fprintf(stderr, "steer: %s\n", a.modelNote)
	}
	note := a.modelNote
	if why := sandboxProblem(cfg); why != "" {
		if o.Command != "" {
			fmt.Fprintf(stderr, "steer: %s\n", why)
		}
		note = strings.TrimPrefix(note+"; "+why, "; ")
	}
	elsewhere := ""
	if cwd, err := os.Getwd(); err == nil && a.rt.Workspace() != cwd {
		elsewhere = a.rt.Workspace()
		if o.Command != "" {
			fmt.Fprintf(stderr, "steer: session %s belongs to %s; working there\n", a.rt.SessionID(), elsewhere)
		}
	}
	switch o.Command {
	case "":
		if o.Plain || cfg.UI.Plain {
			return statusOf(ctx, plain.Run(ctx, a.host, stdin, stdout, plain.Options{Welcome: plainWelcome}), stderr)
		}
		themes, _ := config.ThemesDir() // ParseTheme has found it for any theme file named
		keys, _ := config.KeyBindingsPath()
		err := tui.RunTerminal(ctx, a.host, tui.TerminalOptions{Theme: o.Theme, ConfigTheme: cfg.UI.Theme,
			ThemesDir: themes, KeyBindings: keys,
			NothingToContinue: a.continued != "", Workspace: elsewhere, ModelNote: note,
			Notifications: cfg.UI.Notifications, NoSyncOutput: !cfg.UI.SyncOutput})
		if errors.Is(err, tui.ErrNoTerminal) {
			fmt.Fprintf(stderr, "steer: %v\n", err)
			return exitUsage
		}
		return statusOf(ctx, err, stderr)
	case "run":
		ro := headless.RunOptions{JSON: o.JSON, ListModels: a.discovery.Discovers(a.rt.State().Model.Provider)}
		if f, ok := stderr.(*os.File); ok && xterm.IsTerminal(f.Fd()) {
			ro.Clean = func(s string) string { return sanitize.String(s, sanitize.Options{}) }
		}
		return headless.Run(ctx, a.rt, prompt, ro, stdout, stderr)
	default: // "rpc"
		return statusOf(ctx, rpc.NewServer(a.rt, stdin, stdout).Serve(ctx), stderr)
	}
}

// plainWelcome opens the plain front end's output.
const plainWelcome = "steer, plain mode: type a message and press Enter; answer a question with y, a or n; /quit or end of input leaves."

// statusOf is the exit status of a front end that ended with err: cancelled
// by a signal, failed (said on stderr) or done.
func statusOf(ctx context.Context, err error, stderr io.Writer) int {
	switch {
	case ctx.Err() != nil:
		return exitCancelled
	case err != nil:
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// app is the wired runtime with what must be closed after it.
type app struct {
	rt *runner.Runtime
	// host is the TUI's runtime over several sessions, nil for the
	// headless commands; it holds rt.
	host     *runner.Host
	store    *persistence.Store
	logger   *slog.Logger
	closeLog func()
	// continued says that --continue found nothing to continue; "" otherwise.
	continued string
	// modelNote says that the default model could not be used and which
	// fallback the process started on; "" otherwise.
	modelNote string
	// mcp is the process's MCP servers, closed after the runtime.
	mcp *mcp.Manager
	// discovery lists the servers' models (discoveryFor), closed after
	// the runtime; nil when no provider discovers.
	discovery *discover.Cache
	// lsp is the process's language servers (newLSP), closed after the
	// runtime; nil when there are none.
	lsp *lsp.Manager
}

// close ends the runtime in order, within runner.QuitWait: the active run
// (already aborted by a signal or the front end) is given time to end, the
// pending saves are written, then the database and the log are closed. On
// a database another process keeps locked, what is not written when the
// wait ends is given up on (and logged as failed): steer exits on time.
// What was never saved (a disk still full) is said on stderr, and close
// reports whether everything was saved.
func (a *app) close(stderr io.Writer) (saved bool) {
	ctx, cancel := quitContext()
	defer cancel()
	runs := a.runs()
	if err := runs.WaitForIdle(ctx); err != nil {
		a.logger.Error("the run did not end in time", "error", err)
	}
	err := runs.Close(ctx)
	if err != nil {
		a.logger.Error("saving the last changes failed", "error", err)
	}
	unsaved := runner.NotSaved(err)
	for _, u := range unsaved {
		fmt.Fprintf(stderr, "steer: %v\n", u)
	}
	a.mcp.Close()
	a.lsp.Close()
	a.discovery.Close()
	if err := a.store.CloseContext(ctx); err != nil {
		a.logger.Error("closing the database failed", "error", err)
	}
	a.closeLog()
	return len(unsaved) == 0
}

// quitContext bounds the orderly part of a quit (runner.QuitWait).
func quitContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), runner.QuitWait)
}

// runs is what signals abort and close ends: the host, else the runtime.
func (a *app) runs() interface {
	AbortWith(reason string)
	WaitForIdle(ctx context.Context) error
	Close(ctx context.Context) error
} {
	if a.host != nil {
		return a.host
	}
	return a.rt
}

// build wires the runtime: the configuration's providers (the scripted one
// always among them), the model to start with, the state directory with its
// lock, log and database, the tools and the session. ctx is the quit
// signal: it ends the waits of start-up, and the runtime's writes after it
// (runner.Options.Quit).
func build(ctx context.Context, cfg *config.Config, gate *runner.WorkspaceGate, apis llm.APIs, o headless.Args) (*app, error) {
	providers, err := providersFrom(cfg, apis)
	if err != nil {
		return nil, err
	}
	resolve := cfg.Resolver(func(ref string) (agent.Model, error) { return runner.ResolveModel(providers, ref) })
	model, modelNote, err := initialModel(cfg, o, providers, resolve)
	if err != nil {
		return nil, err
	}
	stateDir, err := config.StateDir(o.StateDir, os.Getenv)
	if err != nil {
		return nil, err
	}
	workspace, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("cannot read the working directory: %w", err)
	}
	level, err := runner.LogLevel(os.Getenv)
	if err != nil {
		return nil, err
	}
	logger, closeLog, err := runner.OpenLog(stateDir, level)
	if err != nil {
		return nil, err
	}
	store, err := persistence.OpenContext(ctx, stateDir, persistence.Options{Log: logger})
	if err != nil {
		closeLog()
		return nil, err
	}
	rules, err := rulebookFor(cfg, gate, workspace, stateDir, sandboxProtections(cfg))
	if err != nil {
		closeStore(store, logger)
		closeLog()
		return nil, err
	}
	servers, err := newLSP(cfg, workspace, logger)
	if err != nil {
		closeStore(store, logger)
		closeLog()
		return nil, err
	}
	user := userDirs()
	a := &app{store: store, logger: logger, closeLog: closeLog, modelNote: modelNote,
		mcp: newMCP(cfg, gate, workspace, stateDir, o, logger, os.Stderr), discovery: discoveryFor(cfg), lsp: servers}
	if o.Continue {
		_, err := store.LatestUnownedSession(ctx, workspace)
		if errors.Is(err, persistence.ErrNotFound) {
			a.continued = "no saved session in this directory (or all are open in other steer processes); starting a new one"
		}
	}
	a.rt, err = runner.New(ctx, runner.Options{
		Providers: providers,
		Model:     model,
		Resolve:   resolve,
		ToolsFor: func(ws string) []agent.Tool {
			return tools.New(ws, append(diagnosticsFor(servers, ws, workspace), tools.WithHiddenEnv(cfg.SecretEnvNames()...),
				tools.WithOutputDir(filepath.Join(stateDir, toolOutputDir)), tools.WithReadableDirs(skills.ReadableDirs(user)...),
				tools.WithSandbox(sandboxPolicy(cfg)), tools.WithFetchAllowPrivate(cfg.Tools.Fetch.AllowPrivate))...)
		},
		SystemPrompt:   assets.SystemPrompt(),
		ProjectContext: tools.ProjectContext,
		ContextFiles:   contextSources(),
		Workspace:      workspace,
		UserDirs:       user,
		Hooks:          cfg.Hooks,
		Thinking:       cfg.Agent.Thinking,
		SteeringMode:   cfg.Agent.SteeringMode,
		FollowUpMode:   cfg.Agent.FollowUpMode,
		MaxInputBytes:  cfg.Agent.MaxInputBytes,
		Logger:         logger,
		Store:          store,
		Ledger:         ledgerFor(o, store),
		Rehearsal:      scripted.RehearsalName(o.Scenario),
		Fallbacks:      cfg.Fallbacks,
		Cooldowns:      failover.Cooldowns(cfg.Auth.Cooldowns),
		Failover:       failover.Config{CooldownWait: cfg.Auth.MaxCooldownWait},
		ContextEngine:  cfg.Agent.ContextEngine,
		ContextEngines: engineConfigs(cfg),
		MCP:            a.mcp,
		LSP:            servers,
		Discovery:      a.discovery,
		Trust:          gate,
		Config:         runner.ViewOf(cfg, gate),
		HiddenEnv:      cfg.SecretEnvNames(),
		ExportSecrets:  secretValues(os.Environ()),
		Approval:       cfg.Approval(o.Approve, o.Command == ""),
		PlanDir:        runner.PlanDirIn(stateDir),
		Rules:          rules,
		Interactive:    o.Command == "" || o.Command == "rpc",
		RunTimeout:     cfg.RunTimeout(o.Timeout),
		Budget:         budgetOf(cfg.Budget, o.MaxCost),
		MaxConcurrent:  cfg.Agent.MaxConcurrent,
		Session:        o.Session,
		Continue:       o.Continue,
		Profile:        o.Profile,
		Quit:           ctx,
	})
	if err != nil {
		a.mcp.Close()
		a.lsp.Close()
		a.discovery.Close()
		closeStore(store, logger)
		closeLog()
		var unknown *runner.UnknownProfileError
		if errors.As(err, &unknown) {
			return nil, fmt.Errorf("--profile: %w", err)
		}
		return nil, err
	}
	// A resumed session comes back on its own model; --model says otherwise.
	if want, _ := resolve(model); o.Model != "" && a.rt.State().Model.Ref() != want.Ref() {
		if _, err := a.rt.SetModel(ctx, model); err != nil {
			a.close(io.Discard) // nothing has been written yet
			return nil, fmt.Errorf("--model %s: %w", o.Model, err)
		}
	}
	logger.Info("steer started", "command", o.Command, "config", cfg.Source, "model", a.rt.State().Model.Ref(),
		"workspace", workspace, "session", a.rt.SessionID())
	return a, nil
}

// ledgerFor is the auth-profile ledger of a process: the state directory's,
// shared by every steer process, except in a rehearsal (--scenario), whose
// scripted failures must never cool down a real profile: it gets a ledger
// of its own, in memory.
func ledgerFor(o headless.Args, store *persistence.Store) failover.Ledger {
	if o.Scenario != "" {
		return &failover.MemLedger{}
	}
	return store.Ledger()
}

// closeStore closes a store that start-up gave up on, within
// runner.QuitWait.
func closeStore(store *persistence.Store, logger *slog.Logger) {
	ctx, cancel := quitContext()
	defer cancel()
	if err := store.CloseContext(ctx); err != nil {
		logger.Error("closing the database failed", "error", err)
	}
}
