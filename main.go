// Command steer is a terminal app for working with an LLM agent that uses
// tools, and the headless front ends of the same runtime: `steer run` for one
// prompt and `steer rpc` for pi's JSON-lines RPC protocol.
//
// main parses flags, builds the runtime from its parts and maps outcomes to
// exit statuses; everything below it returns errors as data.
package main

import (
	"bufio"
	"context"
	"encoding/json"
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
	"text/tabwriter"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/scripted"
	"github.com/steer-tui/steer/agent/rpc"
	"github.com/steer-tui/steer/agent/runner"
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
	exitOK        = 0
	exitFailed    = 1
	exitUsage     = 2
	exitTimedOut  = 3
	exitCancelled = 130
)

const usage = `steer — chat with an LLM agent that uses tools, and steer it while it works.

Usage:
  steer run [--json] [flags] PROMPT   answer one prompt headless (PROMPT "-" or absent: read stdin)
  steer rpc [flags]                   pi's RPC protocol: JSON commands on stdin, events on stdout
  steer sessions [--json]             list saved sessions, newest first
  steer sessions show ID [--json]     print a session's transcript
  steer help                          this text

Flags (before or after the command):
  --model REF        provider/model or model id (default: the first configured model)
  --scenario NAME    scripted-provider scenario: a name from assets/scenarios or a JSON file
  --pace N           scripted-provider chunks per second (default 60; 0 = as fast as possible)
  --state-dir DIR    state directory (default: $STEER_STATE_DIR, else $XDG_STATE_HOME/steer)
  --session ID       resume a saved session (see 'steer sessions')
  --continue         resume the latest session of this directory
  --json             run: print the event stream as JSON lines; sessions: print JSON
  --timeout D        run: give up after D (e.g. 90s, 10m); exit status 3

With no key and no config, steer runs offline on the scripted provider.
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
	switch opts.command {
	case "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	case "sessions":
		return listSessions(opts, stdout, stderr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rt, closeLog, err := build(opts)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	defer closeLog()
	switch opts.command {
	case "":
		return runTUI(ctx, rt, opts)
	case "run":
		return runOnce(ctx, rt, opts, stdin, stdout, stderr)
	default: // "rpc"
		if err := rpc.NewServer(rt, stdin, stdout).Serve(ctx); err != nil && ctx.Err() == nil {
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
	switch {
	case o.session != "" && o.cont:
		return o, usagef("--session and --continue exclude each other")
	case o.config != "":
		return o, usagef("--config: configuration files are not supported yet; steer runs on the scripted provider")
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

// build wires the runtime: the state directory and its log, the scripted
// provider (with its scenario), the tools and the model.
func build(o options) (*runner.Runtime, func(), error) {
	stateDir, err := resolveStateDir(o.stateDir)
	if err != nil {
		return nil, nil, err
	}
	logger, closeLog, err := openLog(stateDir)
	if err != nil {
		return nil, nil, err
	}
	workspace, err := os.Getwd()
	if err != nil {
		closeLog()
		return nil, nil, fmt.Errorf("cannot read the working directory: %w", err)
	}
	popts := scripted.Options{Pace: o.pace}
	if o.scenario != "" {
		sc, err := scripted.LoadScenario(o.scenario)
		if err != nil {
			closeLog()
			return nil, nil, fmt.Errorf("--scenario: %w", err)
		}
		popts.Scenario = sc
	}
	provider := scripted.New(popts)
	store, err := persistence.Open(stateDir, persistence.Options{})
	if err != nil {
		closeLog()
		return nil, nil, err
	}
	cleanup := func() {
		if err := store.Close(); err != nil {
			logger.Error("closing the database failed", "error", err)
		}
		closeLog()
	}
	rt, err := runner.New(context.Background(), runner.Options{
		Providers:    []runner.Provider{{Name: "scripted", Models: scripted.Models(), Stream: provider.Stream}},
		Model:        o.model,
		Tools:        tools.New(workspace),
		SystemPrompt: assets.SystemPrompt(),
		Workspace:    workspace,
		Logger:       logger,
		Store:        store,
		Session:      o.session,
		Continue:     o.cont,
	})
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	logger.Info("steer started", "command", o.command, "model", rt.State().Model.Ref(),
		"workspace", workspace, "session", rt.SessionID())
	return rt, cleanup, nil
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

// runOnce answers one prompt headless and maps the outcome to an exit status.
func runOnce(ctx context.Context, rt *runner.Runtime, o options, stdin io.Reader, stdout, stderr io.Writer) int {
	prompt, err := readPrompt(o.args, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitUsage
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	if o.json {
		out.Write(rpc.SessionHeader(rt.SessionID(), rt.Workspace(), time.Now()))
		out.WriteByte('\n')
	}
	var last agent.Message
	rt.Subscribe(func(ev agent.Event) {
		if end, ok := ev.(agent.MessageEnd); ok && end.Message.Role == agent.RoleAssistant {
			last = end.Message
		}
		if o.json {
			writeJSONEvent(out, ev, rt.SessionID(), stderr)
		} else {
			writeText(out, ev, stderr)
		}
	})
	if err := rt.Prompt(prompt); err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitFailed
	}
	timedOut := waitRun(ctx, rt, o.timeout)
	switch {
	case ctx.Err() != nil:
		return exitCancelled
	case timedOut:
		fmt.Fprintf(stderr, "steer: timed out after %v\n", o.timeout)
		return exitTimedOut
	case last.StopReason == agent.StopReasonError:
		fmt.Fprintf(stderr, "steer: %s\n", last.ErrorMessage)
		return exitFailed
	case last.StopReason == agent.StopReasonAborted:
		return exitCancelled
	}
	return exitOK
}

// waitRun waits for the run to end; an interrupt or the timeout aborts it
// (and still waits, so the transcript gets its aborted marker).
func waitRun(ctx context.Context, rt *runner.Runtime, timeout time.Duration) (timedOut bool) {
	var deadline <-chan time.Time
	if timeout > 0 {
		timer := time.NewTimer(timeout)
		defer timer.Stop()
		deadline = timer.C
	}
	idle := make(chan struct{})
	go func() {
		_ = rt.WaitForIdle(context.Background())
		close(idle)
	}()
	select {
	case <-idle:
		return false
	case <-ctx.Done():
	case <-deadline:
		timedOut = true
	}
	rt.Abort()
	<-idle
	return timedOut
}

func readPrompt(args []string, stdin io.Reader) (string, error) {
	if len(args) > 0 && !(len(args) == 1 && args[0] == "-") {
		return strings.Join(args, " "), nil
	}
	if f, ok := stdin.(*os.File); ok && len(args) == 0 {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			return "", usagef("run needs a PROMPT (or '-' to read it from stdin)")
		}
	}
	data, err := io.ReadAll(stdin)
	if err != nil {
		return "", fmt.Errorf("cannot read the prompt from stdin: %v", err)
	}
	prompt := strings.TrimSpace(string(data))
	if prompt == "" {
		return "", usagef("the prompt is empty")
	}
	return prompt, nil
}

func writeJSONEvent(out *bufio.Writer, ev agent.Event, sessionID string, stderr io.Writer) {
	line, err := rpc.EncodeEvent(ev, sessionID)
	if err != nil {
		fmt.Fprintf(stderr, "steer: cannot encode a %s event: %v\n", ev.Type(), err)
		return
	}
	out.Write(line)
	out.WriteByte('\n')
	out.Flush()
}

// writeText prints the answer's text as it streams, and one line per tool on
// stderr so that stdout stays the answer alone.
func writeText(out *bufio.Writer, ev agent.Event, stderr io.Writer) {
	switch e := ev.(type) {
	case agent.MessageUpdate:
		if e.Event.Type == agent.EventTextDelta {
			out.WriteString(e.Event.Delta)
			out.Flush()
		}
	case agent.MessageEnd:
		if e.Message.Role == agent.RoleAssistant && e.Message.TextContent() != "" {
			out.WriteString("\n")
			out.Flush()
		}
	case agent.ToolExecutionStart:
		fmt.Fprintf(stderr, "→ %s %s\n", e.ToolName, summarizeArgs(e.Args))
	case agent.ToolExecutionEnd:
		status := "ok"
		if e.IsError {
			status = "failed"
		}
		fmt.Fprintf(stderr, "← %s %s\n", e.ToolName, status)
	}
}

func summarizeArgs(args map[string]any) string {
	for _, key := range []string{"command", "path"} {
		if v, ok := args[key].(string); ok {
			return v
		}
	}
	return ""
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

// listSessions prints the saved sessions, or one transcript with "show ID".
// It opens the database read-only when another steer owns the directory.
func listSessions(o options, stdout, stderr io.Writer) int {
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
	ctx := context.Background()
	if len(o.args) == 2 {
		return showSession(ctx, store, o.args[1], o.json, stdout, stderr)
	}
	sessions, err := store.ListSessions(ctx, persistence.ListOptions{})
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitFailed
	}
	if o.json {
		return writeJSON(stdout, stderr, sessionsJSON(sessions))
	}
	if len(sessions) == 0 {
		fmt.Fprintln(stdout, "No saved sessions yet.")
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUPDATED\tMESSAGES\tMODEL\tWORKSPACE\tTITLE")
	for _, s := range sessions {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", s.ID, s.Updated.Local().Format("2006-01-02 15:04"),
			s.MessageCount, s.Model, s.Workspace, s.Title)
	}
	tw.Flush()
	return exitOK
}

// sessionJSON is one session in `steer sessions --json`.
type sessionJSON struct {
	ID           string    `json:"id"`
	Workspace    string    `json:"workspace"`
	Title        string    `json:"title"`
	Model        string    `json:"model"`
	Created      time.Time `json:"created"`
	Updated      time.Time `json:"updated"`
	MessageCount int       `json:"messageCount"`
	InputTokens  int64     `json:"inputTokens"`
	OutputTokens int64     `json:"outputTokens"`
	Cost         float64   `json:"cost"`
}

func sessionsJSON(sessions []persistence.Session) []sessionJSON {
	out := make([]sessionJSON, len(sessions))
	for i, s := range sessions {
		out[i] = sessionJSON{ID: s.ID, Workspace: s.Workspace, Title: s.Title, Model: s.Model,
			Created: s.Created, Updated: s.Updated, MessageCount: s.MessageCount,
			InputTokens: int64(s.InputTokens), OutputTokens: int64(s.OutputTokens), Cost: s.Cost}
	}
	return out
}

// showSession prints a transcript: pi's message objects with --json, else a
// plain rendering.
func showSession(ctx context.Context, store *persistence.Store, id string, asJSON bool, stdout, stderr io.Writer) int {
	msgs, err := store.LoadTranscript(ctx, id)
	if errors.Is(err, persistence.ErrNotFound) {
		fmt.Fprintf(stderr, "steer: no saved session %q; 'steer sessions' lists them\n", id)
		return exitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitFailed
	}
	if asJSON {
		return writeJSON(stdout, stderr, msgs)
	}
	for _, m := range msgs {
		switch m.Role {
		case agent.RoleToolResult:
			fmt.Fprintf(stdout, "[%s result%s]\n%s\n\n", m.ToolName, map[bool]string{true: ", error"}[m.IsError], m.TextContent())
		default:
			fmt.Fprintf(stdout, "%s:\n%s\n", m.Role, m.TextContent())
			for _, c := range m.ToolCalls() {
				args, _ := json.Marshal(c.Arguments)
				fmt.Fprintf(stdout, "→ %s %s\n", c.Name, args)
			}
			if m.StopReason == agent.StopReasonError || m.StopReason == agent.StopReasonAborted {
				fmt.Fprintf(stdout, "(%s: %s)\n", m.StopReason, m.ErrorMessage)
			}
			fmt.Fprintln(stdout)
		}
	}
	return exitOK
}

func writeJSON(stdout, stderr io.Writer, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return exitFailed
	}
	return exitOK
}
