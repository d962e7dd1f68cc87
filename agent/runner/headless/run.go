package headless

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/eventjson"
	"github.com/steer-tui/steer/agent/runner"
)

// RunOptions tune Run.
type RunOptions struct {
	// JSON prints the event stream as JSON lines instead of the answer.
	JSON bool
	// Timeout aborts the run after this long (exit status 3); 0 is none.
	Timeout time.Duration
}

// ErrNoPrompt is returned by ReadPrompt when there is nothing to answer.
var ErrNoPrompt = errors.New("run needs a PROMPT (or '-' to read it from stdin)")

// Run answers prompt and maps the outcome to an exit status: the answer's
// text streams to stdout and one line per tool call goes to stderr, so that
// stdout stays the answer alone. Cancelling ctx (SIGINT) aborts the run.
func Run(ctx context.Context, rt *runner.Runtime, prompt string, o RunOptions, stdout, stderr io.Writer) int {
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	if o.JSON {
		out.Write(eventjson.SessionHeader(rt.SessionID(), rt.Workspace(), time.Now()))
		out.WriteByte('\n')
	}
	var last agent.Message
	flush := flusher{out: out}
	unsubscribe := rt.Subscribe(func(ev agent.Event) {
		if end, ok := ev.(agent.MessageEnd); ok && end.Message.Role == agent.RoleAssistant {
			last = end.Message
		}
		if o.JSON {
			writeJSONEvent(out, ev, rt.SessionID())
		} else {
			writeText(out, ev, stderr)
		}
		flush.after(ev)
	})
	defer unsubscribe()
	if err := rt.Prompt(prompt); err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return ExitFailed
	}
	timedOut := waitRun(ctx, rt, o.Timeout)
	switch {
	case ctx.Err() != nil:
		return ExitCancelled
	case timedOut:
		fmt.Fprintf(stderr, "steer: timed out after %v\n", o.Timeout)
		return ExitTimedOut
	case last.StopReason == agent.StopReasonError:
		fmt.Fprintf(stderr, "steer: %s\n", last.ErrorMessage)
		return ExitFailed
	case last.StopReason == agent.StopReasonAborted:
		return ExitCancelled
	}
	return ExitOK
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

// ReadPrompt takes the prompt from the arguments, or from stdin when they are
// absent or "-". A terminal on stdin with no arguments is ErrNoPrompt rather
// than a silent wait.
func ReadPrompt(args []string, stdin io.Reader) (string, error) {
	if len(args) > 0 && !(len(args) == 1 && args[0] == "-") {
		return strings.Join(args, " "), nil
	}
	if f, ok := stdin.(*os.File); ok && len(args) == 0 {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			return "", ErrNoPrompt
		}
	}
	data, err := io.ReadAll(stdin)
	if err != nil {
		return "", fmt.Errorf("cannot read the prompt from stdin: %v", err)
	}
	prompt := strings.TrimSpace(string(data))
	if prompt == "" {
		return "", errors.New("the prompt is empty")
	}
	return prompt, nil
}

func writeJSONEvent(out *bufio.Writer, ev agent.Event, sessionID string) {
	out.Write(eventjson.Line(ev, sessionID))
	out.WriteByte('\n')
}

// flushInterval bounds how long streamed output may sit in the buffer: short
// enough to read as live, long enough that a fast stream is not one write per
// delta.
const flushInterval = 16 * time.Millisecond

// flusher writes the buffer out at most every flushInterval while deltas
// stream, and at once on every other event.
type flusher struct {
	out  *bufio.Writer
	last time.Time
}

func (f *flusher) after(ev agent.Event) {
	if _, delta := ev.(agent.MessageUpdate); delta && time.Since(f.last) < flushInterval {
		return
	}
	f.out.Flush()
	f.last = time.Now()
}

// writeText prints the answer's text as it streams, and one line per tool on
// stderr.
func writeText(out *bufio.Writer, ev agent.Event, stderr io.Writer) {
	switch e := ev.(type) {
	case agent.MessageUpdate:
		if e.Event.Type == agent.EventTextDelta {
			out.WriteString(e.Event.Delta)
		}
	case agent.MessageEnd:
		if e.Message.Role == agent.RoleAssistant && e.Message.TextContent() != "" {
			out.WriteString("\n")
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
	for _, key := range []string{"command", "path", "pattern"} {
		if v, ok := args[key].(string); ok {
			return v
		}
	}
	return ""
}
