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
	"github.com/steer-tui/steer/agent/llm/scripted"
	"github.com/steer-tui/steer/agent/rpc"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/assets"
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
  steer help                          this text

Flags (before or after the command):
  --model REF        provider/model or model id (default: the first configured model)
  --scenario NAME    scripted-provider scenario: a name from assets/scenarios or a JSON file
  --pace N           scripted-provider chunks per second (default 60; 0 = as fast as possible)
  --state-dir DIR    state directory (default: $STEER_STATE_DIR, else $XDG_STATE_HOME/steer)
  --json             run: print the event stream as JSON lines
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
	case "", "help":
		fmt.Fprint(stdout, usage)
		return exitOK
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
		o.command, rest = rest[0], rest[1:]
		if err := fs.Parse(rest); err != nil {
			return o, err
		}
		o.args = fs.Args()
	}
	switch o.command {
	case "", "help":
	case "rpc":
		if len(o.args) > 0 {
			return o, usagef("rpc takes no arguments, got %q", strings.Join(o.args, " "))
		}
	case "run":
	default:
		return o, usagef("unknown command %q; see 'steer help'", o.command)
	}
	if o.json && o.command != "run" {
		return o, usagef("--json applies to 'steer run' only")
	}
	if o.pace < 0 {
		return o, usagef("--pace must be 0 or more, got %v", o.pace)
	}
	if o.timeout < 0 {
		return o, usagef("--timeout must be positive, got %v", o.timeout)
	}
	switch {
	case o.session != "" || o.cont:
		return o, usagef("--session and --continue need saved sessions, which this build does not have yet")
	case o.config != "":
		return o, usagef("--config: configuration files are not supported yet; steer runs on the scripted provider")
	}
	return o, nil
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
	rt, err := runner.New(runner.Options{
		Providers:    []runner.Provider{{Name: "scripted", Models: scripted.Models(), Stream: provider.Stream}},
		Model:        o.model,
		Tools:        tools.New(workspace),
		SystemPrompt: assets.SystemPrompt(),
		Workspace:    workspace,
		Logger:       logger,
	})
	if err != nil {
		closeLog()
		return nil, nil, fmt.Errorf("--model: %w", err)
	}
	logger.Info("steer started", "command", o.command, "model", rt.State().Model.Ref(), "workspace", workspace)
	return rt, closeLog, nil
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
