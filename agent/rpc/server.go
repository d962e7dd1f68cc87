package rpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/eventjson"
	"github.com/steer-tui/steer/agent/runner"
)

// A command line may be this many times the runtime's input limit, plus
// lineSlack, before it is skipped unread: JSON escaping can double a text,
// and a command has fields besides its message. The runtime refuses an input
// over its limit with a clear error; the line bound keeps a runaway line from
// being held in memory at all.
const (
	lineToInputRatio = 2
	lineSlack        = 64 << 10
)

// Server speaks pi's RPC protocol for one Runtime: commands come in as JSON
// lines, responses and the runtime's events go out as JSON lines.
type Server struct {
	rt      *runner.Runtime
	in      io.Reader
	out     *Writer
	maxLine int

	// The run as the client has seen it: open from agent_start to agent_end.
	mu      sync.Mutex
	runOpen bool
	started chan struct{} // closed by the next agent_start

	// The command loop's own: the compaction under way and the inputs held
	// until it answers (compact.go).
	compacting *compaction
	held       []input
}

// Option configures a Server.
type Option func(*Server)

// WithMaxLineBytes bounds one command line; a longer line is answered with a
// parse error and skipped. n <= 0 keeps the bound derived from the runtime's
// input limit.
func WithMaxLineBytes(n int) Option {
	return func(s *Server) {
		if n > 0 {
			s.maxLine = n
		}
	}
}

// NewServer returns a server that reads commands from in and writes to out.
func NewServer(rt *runner.Runtime, in io.Reader, out io.Writer, opts ...Option) *Server {
	maxLine := rt.MaxInputBytes()*lineToInputRatio + lineSlack
	s := &Server{rt: rt, in: in, out: NewWriter(out), maxLine: maxLine, started: make(chan struct{})}
	for _, o := range opts {
		o(s)
	}
	return s
}

// input is what the reading goroutine hands to the command loop: a line, a
// line that was too long, the end of the input, or several at once.
type input struct {
	line    []byte
	tooLong bool
	id      json.RawMessage // a line too long: its "id", when its ends show one
	err     error           // io.EOF at the end
}

// Serve subscribes to the runtime, then answers commands until the input ends,
// a quit command arrives or ctx is cancelled. It may be called once.
//
//   - At the end of the input it refuses the approvals waiting and to come
//     (nobody can send approve any more: the tool gets a refusal saying so),
//     waits for the active run to become idle, so that a piped prompt prints
//     its whole run, and returns nil (or the output's write error).
//   - On quit it aborts the run, waits for idle, answers and returns nil.
//   - When ctx is cancelled it aborts the run, waits for idle and returns
//     ctx.Err(). A goroutine blocked reading in stays until in yields or is
//     closed; close in to release it.
//
// Every event of a run Serve waited for reaches the output before it returns
// (once ctx is cancelled, within stopWait).
func (s *Server) Serve(ctx context.Context) error {
	err := s.serve(ctx)
	if werr := s.closeOut(ctx); err == nil && werr != nil {
		err = fmt.Errorf("rpc: writing: %w", werr)
	}
	return err
}

// closeOut waits until every line is out: as long as ctx lasts, and at most
// stopWait once it has ended (a signal), for a client that stopped reading.
func (s *Server) closeOut(ctx context.Context) error {
	if ctx.Err() != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), stopWait)
		defer cancel()
	}
	err := s.out.Close(ctx)
	if ctx.Err() != nil {
		return nil // the reason Serve ends is ctx's, not the output's
	}
	return err
}

func (s *Server) serve(ctx context.Context) error {
	s.mu.Lock()
	s.runOpen = s.rt.State().Running // a run started before Serve is open
	s.mu.Unlock()
	unsubscribe := s.rt.Subscribe(s.onEvent)
	defer unsubscribe()
	unsubscribeNotices := s.rt.SubscribeNotices(s.onNotice)
	defer unsubscribeNotices()

	inputs := make(chan input)
	stop := make(chan struct{})
	defer close(stop)
	go s.read(inputs, stop)

	for {
		select {
		case <-ctx.Done():
			s.endCompaction(stopWait)
			s.stopRun(stopReason(ctx))
			return ctx.Err()
		case <-s.compactionDone():
			s.compacting = nil
			if done, err := s.handleHeld(ctx); done {
				return err
			}
		case in := <-inputs:
			if s.compacting != nil {
				s.holdDuringCompaction(in)
				continue
			}
			if done, err := s.handleLineThenEnd(ctx, in); done {
				return err
			}
		}
	}
}

// handleHeld answers the inputs held during a compaction, in order, until
// one starts another compaction (which holds the rest) or ends Serve.
func (s *Server) handleHeld(ctx context.Context) (done bool, err error) {
	for len(s.held) > 0 && s.compacting == nil {
		in := s.held[0]
		s.held = s.held[1:]
		if done, err := s.handleLineThenEnd(ctx, in); done {
			return true, err
		}
	}
	return false, nil
}

// handleLineThenEnd answers an input whose line may start a compaction: the
// end of the input that came with that line then waits for compact's answer.
func (s *Server) handleLineThenEnd(ctx context.Context, in input) (done bool, err error) {
	if in.err == nil || in.tooLong {
		return s.handleInput(ctx, in)
	}
	line := in
	line.err = nil
	if done, err := s.handleInput(ctx, line); done {
		return true, err
	}
	end := input{err: in.err}
	if s.compacting != nil {
		s.held = append(s.held, end)
		return false, nil
	}
	return s.handleInput(ctx, end)
}

// handleInput answers one input; done says Serve returns err.
func (s *Server) handleInput(ctx context.Context, in input) (done bool, err error) {
	if in.tooLong {
		s.respond(response{ID: in.id, Command: "parse", Error: fmt.Sprintf(
			"Failed to parse command: line longer than %d bytes; an input may be at most %s (agent.maxInputBytes)",
			s.maxLine, runner.ByteSize(s.rt.MaxInputBytes()))})
	} else if len(bytes.TrimSpace(in.line)) > 0 {
		if s.handleLine(ctx, in.line) {
			s.stopRun(runner.AbortQuit)
			return true, nil
		}
	}
	if err := s.out.Err(); err != nil {
		s.stopRun(runner.AbortQuit)
		return true, fmt.Errorf("rpc: writing: %w", err)
	}
	switch {
	case in.err == nil:
		return false, nil
	case errors.Is(in.err, io.EOF):
		// No approve command can come any more: the calls waiting for one,
		// and those to come, are refused, so that the run ends.
		s.rt.RefuseApprovals()
		if err := s.rt.WaitForIdle(ctx); err != nil {
			s.stopRun(runner.AbortQuit)
			return true, err
		}
		if err := s.out.Err(); err != nil {
			return true, fmt.Errorf("rpc: writing: %w", err)
		}
		return true, nil
	default:
		s.stopRun(runner.AbortQuit)
		return true, fmt.Errorf("rpc: reading commands: %w", in.err)
	}
}

// onEvent is the runtime subscriber: it writes the event and tracks the run
// as the client sees it. The run is closed before agent_end is written and
// opened after agent_start is, so that a command sent in reaction to either
// line finds the state the line announced, and its response follows the line.
func (s *Server) onEvent(ev agent.Event) {
	if _, ok := ev.(agent.AgentEnd); ok {
		s.mu.Lock()
		s.runOpen = false
		s.mu.Unlock()
	}
	_ = s.out.WriteEvent(ev, s.rt.SessionID())
	if _, ok := ev.(agent.AgentStart); ok {
		s.mu.Lock()
		s.runOpen = true
		close(s.started)
		s.started = make(chan struct{})
		s.mu.Unlock()
	}
}

// settle runs before each command. agent_end means "no more events" and the
// runtime turns idle just after it, so a client that prompts as soon as it
// reads agent_end (as pi's clients do) could be told the agent is streaming.
// When the client has seen the last run end, settle waits until the runtime
// is idle too, or until a queued input has started the next run.
func (s *Server) settle(ctx context.Context) {
	s.mu.Lock()
	open, started := s.runOpen, s.started
	s.mu.Unlock()
	if open {
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	idle := make(chan struct{})
	go func() {
		_ = s.rt.WaitForIdle(ctx)
		close(idle)
	}()
	select {
	case <-idle:
	case <-started:
	}
}

// stopWait bounds how long Serve waits for an aborted run to end: a tool
// that ignores cancellation must not hold `steer rpc` open for ever.
const stopWait = 5 * time.Second

// stopRun aborts the active run with reason and waits (at most stopWait)
// until its last event is out.
func (s *Server) stopRun(reason string) {
	s.rt.AbortWith(reason)
	ctx, cancel := context.WithTimeout(context.Background(), stopWait)
	defer cancel()
	_ = s.rt.WaitForIdle(ctx)
}

// stopReason is why Serve's ctx ended, for the aborted marker: the reason of
// an *agent.AbortError cause (main cancels with the signal it received), else
// a quit.
func stopReason(ctx context.Context) string {
	var ae *agent.AbortError
	if errors.As(context.Cause(ctx), &ae) {
		return ae.Reason
	}
	return runner.AbortQuit
}

// onNotice writes a runtime notice as an event: {"type": kind, "sessionId",
// "message"}, plus "error" for persist_error and the stall's fields for
// run_stalled and run_resumed; cooldown_cleared and quarantine_cleared
// have the fields of their Data instead, as the runner's annotations do.
func (s *Server) onNotice(n runner.Notice) {
	if n.Kind == runner.NoticeCooldownCleared || n.Kind == runner.NoticeQuarantineCleared || n.Kind == runner.NoticeHook ||
		n.Kind == runner.NoticeApprovalMode {
		_ = s.out.WriteLine(eventjson.Line(agent.Annotation{Kind: string(n.Kind), Data: n.Data}, s.rt.SessionID()))
		return
	}
	out := noticeOut{Type: string(n.Kind), SessionID: s.rt.SessionID(), Message: n.Text}
	if n.Kind == runner.NoticePersistError {
		out.Error = n.Text
	}
	if st, ok := n.Data.(runner.StallInfo); ok {
		out.StallInfo = &st
	}
	line, _ := agent.EncodeJSON(out) // strings only: always encodes
	_ = s.out.WriteLine(line)
}

type noticeOut struct {
	Type      string `json:"type"`
	SessionID string `json:"sessionId"`
	Message   string `json:"message"`
	Error     string `json:"error,omitempty"`
	*runner.StallInfo
}

// read hands lines to the command loop until the input ends or stop closes.
func (s *Server) read(inputs chan<- input, stop <-chan struct{}) {
	br := bufio.NewReaderSize(s.in, 64<<10)
	for {
		in := readLine(br, s.maxLine)
		select {
		case inputs <- in:
		case <-stop:
			return
		}
		if in.err != nil {
			return
		}
	}
}

// readLine reads up to LF (LF framing only: U+2028 and U+2029 are ordinary
// characters inside JSON strings) and strips the LF and a CR before it. A line
// over max bytes is skipped and reported as tooLong, with its id when one
// of its ends shows it (only those ends are kept).
func readLine(br *bufio.Reader, max int) input {
	var (
		in   input
		over oversized
	)
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case in.tooLong:
			over.add(chunk)
		case len(in.line)+len(bytes.TrimSuffix(chunk, []byte("\n"))) > max:
			over.add(in.line)
			over.add(chunk)
			in.tooLong, in.line = true, nil
		default:
			in.line = append(in.line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if in.tooLong {
			over.tail = bytes.TrimRight(over.tail, "\r\n")
			in.id = over.id()
		}
		in.err = err
		in.line = bytes.TrimSuffix(in.line, []byte("\n"))
		in.line = bytes.TrimSuffix(in.line, []byte("\r"))
		return in
	}
}
