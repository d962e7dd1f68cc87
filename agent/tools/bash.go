package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools/sandbox"
)

const (
	// killGrace is how long a stopped command's process group has between
	// SIGTERM and SIGKILL. It also bounds how long Execute waits for the
	// output pipe after the shell has exited, when a background process
	// still holds it open.
	killGrace = 500 * time.Millisecond
	// updateInterval is the shortest time between two live output updates.
	updateInterval = 100 * time.Millisecond
	// groupPoll is how often a stopped group is checked for survivors during
	// the grace period.
	groupPoll = 20 * time.Millisecond
)

type bashTool struct {
	ws        workspace
	hiddenEnv []string
	outputDir string
	now       func() time.Time
	sandbox   sandbox.Policy
	tmp       *tempDir // TMPDIR of the commands a sandbox confines
}

// Bash returns the bash tool, which runs a command with bash -c in the
// workspace, streaming its combined output. Its result holds the whole
// output when it is short, else its head and its tail, and the full output
// goes to a file under WithOutputDir's directory. The command gets steer's
// environment without its secrets (see the package doc), and runs under
// WithSandbox's policy.
func Bash(workspace string, opts ...Option) agent.Tool {
	o := optionsOf(opts)
	return bashTool{ws: newWorkspace(workspace), hiddenEnv: o.hiddenEnv, outputDir: o.outputDir, now: time.Now,
		sandbox: o.sandbox, tmp: &tempDir{}}
}

var bashSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"command": {"type": "string", "description": "Shell command, run with bash -c in the workspace."},
		"timeout": {"type": "number", "exclusiveMinimum": 0, "description": "Seconds after which the command is killed (default: no timeout)."}
	},
	"required": ["command"],
	"additionalProperties": false
}`)

func (t bashTool) Spec() agent.ToolSpec {
	spec := agent.ToolSpec{
		Name: "bash",
		Description: fmt.Sprintf("Execute a bash command in the workspace root. stdin is empty; stdout and "+
			"stderr are merged. Output up to %d KB is returned whole; longer output is cut to its first %d KB "+
			"and last %d KB, and the result names a file holding all of it. "+
			"Set timeout (seconds) to stop a command that may hang. "+
			"A non-zero exit status makes the result an error. "+
			"Variables holding API keys, tokens, secrets and passwords are not in the environment.",
			maxBytes/1024, headKeep/1024, tailKeep/1024),
		Parameters: bashSchema,
	}
	if t.sandbox.ConfinesWrites() {
		spec.Description += sandboxNote
		spec.Parameters = sandboxSchema
	}
	if t.sandbox.Network == sandbox.Deny {
		spec.Description += networkNote
	}
	return spec
}

// Describe reports the command: it may change anything, so the policy
// treats it as mutating. The paths a call asks to write (allowWrite) are
// among its paths, and reach outside the workspace.
func (t bashTool) Describe(args map[string]any) Access {
	a := Access{
		Paths:    []string{t.ws.root},
		Mutating: true,
		Summary:  "bash: " + clip(stringArg(args, "command"), summaryLen),
	}
	if extra := AllowWritePaths(args); len(extra) > 0 {
		a.Paths = append(a.Paths, extra...)
		a.Outside = true
		a.Summary += " (write: " + strings.Join(extra, ", ") + ")"
	}
	return a
}

// Execute runs the command in its own process group. When ctx is cancelled
// or the timeout passes, the whole group gets SIGTERM and, after killGrace,
// SIGKILL; Execute returns within about killGrace of that even when a
// background process keeps the output pipe open. A stopped command's exit
// code is never 0: 128+n when signal n ended the shell, its own code when it
// exited with one, else -1.
func (t bashTool) Execute(ctx context.Context, callID string, args map[string]any, update agent.ToolUpdate) (agent.ToolResult, error) {
	timeout := time.Duration(numberArg(args, "timeout", 0) * float64(time.Second))
	var runCtx context.Context
	var cancel context.CancelFunc
	if timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, timeout)
	} else {
		runCtx, cancel = context.WithCancel(ctx)
	}
	defer cancel()

	out := newCapture(t.outputDir, callID, t.now())
	cmd, boxed, err := t.newCommand(runCtx, args)
	if err != nil {
		out.finish()
		return agent.ErrorResult(fmt.Sprintf("cannot run bash in the sandbox: %v", err)), nil
	}
	cmd.Dir = t.ws.root
	cmd.Env = CommandEnv(cmd.Environ(), t.hiddenEnv)
	cmd.Stdout, cmd.Stderr = out, out // one pipe, so the streams keep their order
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stopped := make(chan time.Time, 1)
	cmd.Cancel = func() error {
		stopped <- time.Now()
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	}
	cmd.WaitDelay = killGrace

	startCmd := cmd.Start
	if boxed != nil {
		startCmd = boxed.Start
	}
	start := time.Now()
	if err := startCmd(); err != nil {
		switch {
		case ctx.Err() != nil:
			return bashResult(out, agent.CommandDetails{ExitCode: -1, Aborted: true}, "[aborted]"), nil
		case runCtx.Err() != nil:
			return bashResult(out, agent.CommandDetails{ExitCode: -1, TimedOut: true}, fmt.Sprintf("[timed out after %s]", timeout)), nil
		}
		out.finish()
		var refused *sandbox.RefusedError
		if errors.As(err, &refused) {
			return agent.ErrorResult(refused.Error()), nil
		}
		return agent.ErrorResult(fmt.Sprintf("cannot run bash: %v", err)), nil
	}
	stopUpdates := streamUpdates(out.tail, update)
	waitErr := cmd.Wait()
	stopUpdates()

	details := agent.CommandDetails{DurationMs: time.Since(start).Milliseconds(), ExitCode: exitCode(cmd.ProcessState)}
	select {
	case at := <-stopped:
		killGroup(cmd.Process.Pid, at.Add(killGrace))
		if details.ExitCode == 0 { // a stopped command did not succeed, even if its shell says so
			details.ExitCode = -1
		}
		if ctx.Err() != nil {
			details.Aborted = true
			return bashResult(out, details, "[aborted]"), nil
		}
		details.TimedOut = true
		return bashResult(out, details, fmt.Sprintf("[timed out after %s]", timeout)), nil
	default:
	}

	if cmd.ProcessState == nil {
		out.finish()
		return agent.ErrorResult(fmt.Sprintf("bash did not report its exit: %v", waitErr)), nil
	}
	var note string
	switch status, _ := cmd.ProcessState.Sys().(syscall.WaitStatus); {
	case status.Signaled():
		note = fmt.Sprintf("[killed by signal %d (%s)]", int(status.Signal()), status.Signal())
	case details.ExitCode != 0:
		note = fmt.Sprintf("[exit code %d]", details.ExitCode)
	case waitErr != nil && !errors.Is(waitErr, exec.ErrWaitDelay):
		// The shell succeeded but its output could not be read.
		note = fmt.Sprintf("[error reading output: %v]", waitErr)
	}
	return withBlocks(bashResult(out, details, note), boxed), nil
}

// exitCode is the shell's exit status as a shell reports it: 128+n when
// signal n killed it, -1 when it is unknown.
func exitCode(ps *os.ProcessState) int {
	if ps == nil {
		return -1
	}
	if status, ok := ps.Sys().(syscall.WaitStatus); ok && status.Signaled() {
		return 128 + int(status.Signal())
	}
	return ps.ExitCode()
}

// bashResult is the result of a finished command; a result with an ending
// note (exit code, abort, timeout) is an error.
func bashResult(out *capture, details agent.CommandDetails, ending string) agent.ToolResult {
	got := out.finish()
	text := got.text
	details.Truncated, details.FullOutputPath = got.truncated, got.path
	details.OutputWindow = got.window
	switch {
	case text == "" && ending == "":
		text = "(no output)"
	case text == "":
		text = ending
	case ending != "":
		text += "\n\n" + ending
	}
	return agent.ToolResult{
		Content: []agent.Content{agent.Text(text)},
		Details: details,
		IsError: ending != "",
	}
}

// renderTail is the output tail followed by its truncation note and the note
// on how the command ended.
func renderTail(t tail, ending string) string {
	notes := strings.TrimSpace(t.note() + "\n" + ending)
	switch {
	case t.text == "" && notes == "":
		return "(no output)"
	case t.text == "":
		return notes
	case notes == "":
		return t.text
	default:
		return t.text + "\n\n" + notes
	}
}

// partialResult is the output so far as a partial result: its tail and
// where that tail stands in the output, for readers that follow it live.
func partialResult(t tail) agent.ToolResult {
	r := agent.TextResult(renderTail(t, ""))
	w := agent.OutputWindow{OutputBytes: t.totalBytes, Partial: t.truncated}
	if t.text != "" && !t.mended {
		w.TailEndsAt, w.TailEnd = t.tailEndsAt, len(t.text)
	}
	r.Details = w
	return r
}

// streamUpdates sends the output so far to update as it arrives: at once for
// the first output, then at most every updateInterval. The returned func
// stops the stream and returns once update will not be called again.
func streamUpdates(out *tailBuffer, update agent.ToolUpdate) (stop func()) {
	if update == nil {
		return func() {}
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-done:
				return
			case <-out.changed:
			}
			update(partialResult(out.snapshot()))
			throttle := time.NewTimer(updateInterval)
			select {
			case <-done:
				throttle.Stop()
				return
			case <-throttle.C:
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// killGroup waits until the process group pgid has exited or deadline has
// passed, then sends SIGKILL to whatever is left of it.
func killGroup(pgid int, deadline time.Time) {
	for syscall.Kill(-pgid, 0) == nil && time.Now().Before(deadline) {
		time.Sleep(groupPoll)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}
