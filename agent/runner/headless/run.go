package headless

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"syscall"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/eventjson"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/outbox"
)

// RunOptions tune Run.
type RunOptions struct {
	// JSON prints the event stream as JSON lines instead of the answer.
	JSON bool
	// Clean makes tool output and tool arguments safe to print on stderr,
	// removing escape sequences and control characters; main sets it when
	// stderr is a terminal. nil prints them as they are.
	Clean func(string) string
	// ToolOutputLimit bounds the output printed per tool call; 0 is
	// DefaultToolOutputLimit.
	ToolOutputLimit int
	// ListModels asks the servers of the providers that list their models
	// before the prompt (main sets it when the session's model is of one):
	// the model runs with its server's context window, and a server that
	// does not answer is said on stderr.
	ListModels bool
}

// Run answers prompt and maps the outcome to an exit status. The answer's
// text streams to stdout; on stderr go the tools' calls with their output
// as it arrives, failed saves and why the run stopped — its error, then,
// for a run that did not complete, its outcome and reason from run_end
// ("run failed: context_overflow") — so that stdout stays the answer alone.
//
// Cancelling ctx aborts the run, recording context.Cause(ctx) as the reason
// (say runner.AbortSignal) unless it is context.Canceled, which records the
// user's abort; Run returns ExitCancelled. A run stopped by the runtime's
// time limit (runner.AbortTimeout) returns ExitTimedOut. A failed save makes an
// otherwise successful run ExitFailed: its transcript is incomplete. So does
// an answer that cannot be written (a reader that went away, a full disk),
// which also stops the run.
//
// Both streams go out through an outbox: the runtime's subscriber never waits
// for a reader (a paused pager), which would hold back the saving of the
// events after it.
func Run(ctx context.Context, rt *runner.Runtime, prompt string, o RunOptions, stdout, stderr io.Writer) int {
	box := outbox.New()
	defer closeOutbox(ctx, box)
	errw, answer := box.To(stderr), box.To(stdout)
	out := bufio.NewWriter(answer)
	// mu guards out and last: the subscriber may still be running when Run
	// gives up on a run that does not stop.
	var mu sync.Mutex
	if o.JSON {
		out.Write(eventjson.SessionHeader(rt.SessionID(), rt.Workspace(), time.Now()))
		out.WriteByte('\n')
	}
	var last agent.Message
	var ended runner.RunEnd // the last run's run_end
	flush := flusher{out: out, target: answer, failed: rt.AbortWith}
	tools := newToolOutput(errw, o.Clean, o.ToolOutputLimit)
	unsubscribe := rt.Subscribe(func(ev agent.Event) {
		mu.Lock()
		defer mu.Unlock()
		if end, ok := ev.(agent.MessageEnd); ok && end.Message.Role == agent.RoleAssistant {
			last = end.Message
		}
		if a, ok := ev.(agent.Annotation); ok && a.Kind == runner.AnnotationRunEnd {
			ended, _ = a.Data.(runner.RunEnd)
		}
		if o.JSON {
			writeJSONEvent(out, ev, rt.SessionID())
			if a, ok := ev.(agent.Annotation); ok && a.Kind == runner.AnnotationCooldown {
				if info, ok := a.Data.(runner.CooldownInfo); ok {
					fmt.Fprintln(errw, info.Line()) // its own stderr line, whatever else steer run says
				}
			}
		} else {
			if _, delta := ev.(agent.MessageUpdate); !delta {
				flush.flush() // the answer so far before any line on stderr
			}
			writeText(out, ev)
			tools.event(ev)
		}
		flush.after(ev)
	})
	defer unsubscribe()
	defer func() { mu.Lock(); tools.stopCountdown(); mu.Unlock() }()
	if o.JSON { // a quarantine reported outside a request is an event too, and so are the other facts of noticeEvent
		defer rt.SubscribeNotices(func(n runner.Notice) {
			kind, ok := noticeEvent(n.Kind)
			if !ok {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			writeJSONEvent(out, agent.Annotation{Kind: kind, Data: n.Data}, rt.SessionID())
			flush.flush()
		})()
	}
	if o.JSON { // sub-agents' events too, each with its own sessionId
		rt.SubscribeChildren(func(sessionID string, ev agent.Event) {
			mu.Lock()
			defer mu.Unlock()
			writeJSONEvent(out, ev, sessionID)
			flush.after(ev)
		})
	}
	saves := watchSaves(rt, errw)
	defer saves.stop()
	if o.ListModels {
		rt.RefreshModels(ctx)
	}

	// The files and MCP resources the prompt @-mentions go with it, as
	// from the TUI.
	attached, err := rt.Attach(ctx, prompt, nil)
	if err == nil {
		err = rt.Prompt(ctx, prompt, attached...)
	}
	if err != nil {
		mu.Lock()
		out.Flush() // the session header of --json, the only line there is
		mu.Unlock()
		fmt.Fprintf(errw, "steer: %v\n", err)
		var tooLarge *runner.InputTooLargeError
		if errors.As(err, &tooLarge) {
			return ExitUsage
		}
		return ExitFailed
	}
	waitRun(ctx, rt, errw)
	mu.Lock()
	flush.flush()
	final, end := last, ended
	mu.Unlock()
	dctx, cancel := drainContext(ctx)
	_ = box.Drain(dctx) // the answer written, or not, before its status is judged
	cancel()
	mu.Lock()
	flush.flush()
	outErr := flush.err
	mu.Unlock()
	status := ExitOK
	switch {
	case outErr != nil:
		fmt.Fprintf(errw, "steer: %s\n", outErr)
		status = ExitFailed
	case ctx.Err() != nil:
		fmt.Fprintf(errw, "steer: run aborted: %s\n", abortReason(ctx))
		status = ExitCancelled
	case rt.TimedOut():
		fmt.Fprintf(errw, "steer: %s\n", final.ErrorMessage)
		status = ExitTimedOut
	case final.StopReason == agent.StopReasonError:
		fmt.Fprintf(errw, "steer: %s\n", final.ErrorMessage)
		status = ExitFailed
	case final.StopReason == agent.StopReasonAborted:
		fmt.Fprintf(errw, "steer: %s\n", final.ErrorMessage)
		status = ExitCancelled
	}
	if line := endLine(end); line != "" {
		fmt.Fprintf(errw, "steer: %s\n", line)
	}
	reportPlan(rt, o.JSON, &mu, out, &flush, errw)
	if saves.failed() && status == ExitOK {
		fmt.Fprintln(errw, "steer: the answer is complete but the session was not fully saved")
		status = ExitFailed
	}
	return status
}

// endLine words how a run that did not complete ended, for stderr: "run
// failed: context_overflow", "run hard_timeout"; "" for a completed run, a
// cancelled one (the abort's own line says why) and one that never got to
// its run_end.
func endLine(end runner.RunEnd) string {
	if end.Outcome == "" || end.Completed() || end.Outcome == runner.OutcomeCancelled {
		return ""
	}
	if end.Reason == "" {
		return "run " + end.Outcome
	}
	return "run " + end.Outcome + ": " + end.Reason
}

// abortWait bounds the wait for an aborted run to end: its tools killed and
// its marker saved. A run that will not stop is left behind.
var abortWait = 5 * time.Second

// waitRun waits for the run to end; an interrupt aborts it with its reason
// and still waits, up to abortWait, so that the transcript gets its aborted
// marker. The run's time limit is the runtime's (Options.RunTimeout).
func waitRun(ctx context.Context, rt *runner.Runtime, stderr io.Writer) {
	idle := make(chan struct{})
	go func() {
		_ = rt.WaitForIdle(context.Background())
		close(idle)
	}()
	select {
	case <-idle:
		return
	case <-ctx.Done():
		rt.AbortWith(abortReason(ctx))
	}
	select {
	case <-idle:
	case <-time.After(abortWait):
		fmt.Fprintf(stderr, "steer: the run did not stop within %v of being aborted\n", abortWait)
	}
}

// abortReason is the reason a cancelled ctx gives: its cause, unless that
// is plain cancellation, the user's abort.
func abortReason(ctx context.Context) string {
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return cause.Error()
	}
	return agent.AbortedMessage
}

// saveWatch prints the runtime's notices about saving on stderr and
// remembers whether a save failed.
type saveWatch struct {
	mu   sync.Mutex
	bad  bool
	stop func()
}

func watchSaves(rt *runner.Runtime, stderr io.Writer) *saveWatch {
	w := &saveWatch{}
	w.stop = rt.SubscribeNotices(func(n runner.Notice) {
		switch n.Kind {
		case runner.NoticePersistError:
			// Printed before it counts: once failed says so, its line is out.
			w.mu.Lock()
			fmt.Fprintf(stderr, "steer: %s\n", n.Text)
			w.bad = true
			w.mu.Unlock()
		case runner.NoticePersistRecovered:
			fmt.Fprintf(stderr, "steer: %s\n", n.Text)
		case runner.NoticeQuarantine:
			if q, ok := n.Data.(runner.QuarantineInfo); !ok || q.First() {
				fmt.Fprintf(stderr, "⚠ %s\n", n.Text)
			}
		case runner.NoticeCooldownCleared, runner.NoticeQuarantineCleared:
			fmt.Fprintln(stderr, n.Text)
		case runner.NoticeRunStalled:
			fmt.Fprintf(stderr, "⚠ %s\n", n.Text)
		case runner.NoticeHook, runner.NoticeDiscoveryRecovered:
			fmt.Fprintln(stderr, n.Text)
		case runner.NoticeDiscoveryFailed:
			fmt.Fprintf(stderr, "⚠ %s\n", n.Text)
		}
	})
	return w
}

// noticeEvent is the --json event type of a runtime notice that carries a
// fact (its Data the event's fields), false for one --json leaves out.
func noticeEvent(kind runner.NoticeKind) (string, bool) {
	switch kind {
	case runner.NoticeQuarantine:
		return runner.AnnotationQuarantine, true
	case runner.NoticeQuarantineCleared:
		return runner.AnnotationQuarantineCleared, true
	case runner.NoticeCooldownCleared:
		return runner.AnnotationCooldownCleared, true
	case runner.NoticeCompaction, runner.NoticeRunStalled, runner.NoticeRunResumed, runner.NoticeHook, runner.NoticeApprovalMode:
		return string(kind), true
	}
	return "", false
}

func (w *saveWatch) failed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.bad
}

// drainWait bounds the wait for output nobody reads once ctx has ended (a
// signal): steer exits rather than wait for a reader that stopped.
const drainWait = 2 * time.Second

// drainContext is how long to wait for the output to be written: while ctx
// lasts, and drainWait once it has ended.
func drainContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx.Err() == nil {
		return ctx, func() {}
	}
	return context.WithTimeout(context.WithoutCancel(ctx), drainWait)
}

// closeOutbox writes out what is left, within drainContext.
func closeOutbox(ctx context.Context, box *outbox.Outbox) {
	dctx, cancel := drainContext(ctx)
	defer cancel()
	_ = box.Close(dctx)
}

func writeJSONEvent(out *bufio.Writer, ev agent.Event, sessionID string) {
	out.Write(eventjson.Line(ev, sessionID))
	out.WriteByte('\n')
}

// AbortOutputClosed is the reason of a run stopped because its output was
// closed (a reader like head went away).
const AbortOutputClosed = "the output was closed (broken pipe)"

// flushInterval bounds how long streamed output may sit in the buffer: short
// enough to read as live, long enough that a fast stream is not one write per
// delta.
const flushInterval = 16 * time.Millisecond

// flusher writes the buffer out at most every flushInterval while deltas
// stream, and at once on every other event.
type flusher struct {
	out *bufio.Writer
	// target is where out writes: its error is a write that failed after
	// out handed the bytes over.
	target *outbox.Target
	last   time.Time
	// failed is called once when stdout cannot be written (a broken pipe:
	// `steer run … | head`; a full disk), with the reason, so that the run
	// stops instead of spending tokens on output nobody gets.
	failed func(reason string)
	// err is why stdout could not be written; nil while it can.
	err error
}

func (f *flusher) after(ev agent.Event) {
	if _, delta := ev.(agent.MessageUpdate); delta && time.Since(f.last) < flushInterval {
		return
	}
	f.flush()
	f.last = time.Now()
}

func (f *flusher) flush() {
	err := f.out.Flush()
	if err == nil {
		err = f.target.Err()
	}
	if err == nil || f.err != nil {
		return
	}
	f.err = outputError(err)
	f.failed(f.err.Error())
}

// outputError words a failed write of the answer: a reader that went away
// is AbortOutputClosed.
func outputError(err error) error {
	if errors.Is(err, syscall.EPIPE) {
		return errors.New(AbortOutputClosed)
	}
	return fmt.Errorf("writing the answer failed: %w", err)
}

// writeText prints the answer's text as it streams.
func writeText(out *bufio.Writer, ev agent.Event) {
	switch e := ev.(type) {
	case agent.MessageUpdate:
		if e.Event.Type == agent.EventTextDelta {
			out.WriteString(e.Event.Delta)
		}
	case agent.MessageEnd:
		if e.Message.Role == agent.RoleAssistant && e.Message.HasText() {
			out.WriteString("\n")
		}
	}
}
