package engines

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// How long the end of a process may take. The engine's stderr may be held
// by something it started: waitDelay bounds copying it after the engine
// exits. drainWait bounds reading the rest of stdout once the group is
// killed, reapWait the wait for all of that when stopping.
const (
	waitDelay = 2 * time.Second
	drainWait = time.Second
	reapWait  = 5 * time.Second
)

// errLineTooLong is a line from the engine past maxLineBytes (its message
// says the size: errors.New of a constant runs no code at init, where
// fmt.Errorf would in every steer process).
var errLineTooLong = errors.New("the engine wrote a line longer than 64 MiB")

// process is one running engine program and the goroutines that serve it:
// the writer sends request lines, the reader hands each answer to the
// request waiting for its id, the waiter reaps the process. The process is
// the leader of its own process group, which is killed whole, so that
// nothing it started outlives it.
type process struct {
	cmd    *exec.Cmd
	pgid   int
	stdin  *os.File // our ends of its pipes
	stdout *os.File
	writes chan []byte
	info   Info // from the handshake; set before the process is shared
	// tail keeps the end of its stderr, quoted by the Failure it ends with.
	tail *stderrTail

	mu      sync.Mutex
	pending map[uint64]chan reply
	err     error         // why it can answer no more; the first reason wins
	done    chan struct{} // closed when err is set
	// readerDone closes when the reader stops; eof says it read to the end
	// (every holder of stdout is gone).
	readerDone chan struct{}
	eof        bool
	exited     chan struct{} // closed when reaped and its pipes closed
}

// start starts cfg's command with its stdin and stdout on pipes of ours and
// its stderr on cfg.Stderr (nothing when nil): never steer's own.
func start(cfg ExternalConfig) (*process, error) {
	if len(cfg.Command) == 0 || cfg.Command[0] == "" {
		return nil, errors.New("no command")
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	tail := &stderrTail{}
	var stderr io.Writer = tail
	if cfg.Stderr != nil {
		stderr = io.MultiWriter(cfg.Stderr, tail)
	}
	cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
	cmd.Dir, cmd.Env = cfg.Dir, cfg.Env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, stderr
	cmd.WaitDelay = waitDelay
	setProcessGroup(cmd)
	err = cmd.Start()
	inR.Close() // the child has its own copies now
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	p := &process{
		cmd: cmd, pgid: cmd.Process.Pid, stdin: inW, stdout: outR, tail: tail,
		writes: make(chan []byte), pending: map[uint64]chan reply{},
		done: make(chan struct{}), readerDone: make(chan struct{}), exited: make(chan struct{}),
	}
	go p.writeLoop()
	go p.readLoop()
	go p.waitLoop()
	return p, nil
}

// request sends request id and waits for its answer, the process's end or
// ctx. An answer that arrives after ctx is done is dropped by the reader.
func (p *process) request(ctx context.Context, id uint64, m Method, params any) (json.RawMessage, error) {
	line, err := encodeRequest(id, m, params)
	if err != nil {
		return nil, err
	}
	ch := make(chan reply, 1)
	p.mu.Lock()
	if p.err != nil {
		defer p.mu.Unlock()
		return nil, p.err
	}
	p.pending[id] = ch
	p.mu.Unlock()
	defer p.forget(id)
	select {
	case p.writes <- line:
	case <-p.done:
		return nil, p.ended()
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	select {
	case r := <-ch: // end fails every pending request through its channel
		return r.result, r.err
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

func (p *process) forget(id uint64) {
	p.mu.Lock()
	delete(p.pending, id)
	p.mu.Unlock()
}

// ended returns why the process can answer no more, or nil while it can.
func (p *process) ended() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// end marks the process ended by err unless it already is (reporting
// whether this call did), fails the requests waiting for it and closes its
// input, which tells a well-behaved engine to exit. A Failure gets the end
// of the process's stderr, which is complete when the waiter ends it (Wait
// has copied all of it).
func (p *process) end(err error) bool {
	if f, ok := err.(*Failure); ok && f.Stderr == "" {
		err = &Failure{Reason: f.Reason, Err: f.Err, Stderr: p.tail.String()}
	}
	p.mu.Lock()
	if p.err != nil {
		p.mu.Unlock()
		return false
	}
	p.err = err
	pending := p.pending
	p.pending = nil
	p.mu.Unlock()
	close(p.done)
	p.stdin.Close() // also unblocks a write stuck on a full pipe
	for _, ch := range pending {
		ch <- reply{err: err}
	}
	return true
}

// kill ends the process by err and kills its group at once.
func (p *process) kill(err error) {
	p.end(err)
	killGroup(p.pgid)
}

// stop ends the process by err, gives it grace to exit by itself (its input
// is closed), then kills its group and waits, bounded, until it is reaped.
func (p *process) stop(err error, grace time.Duration) {
	p.end(err)
	t := time.NewTimer(grace)
	select {
	case <-p.exited:
	case <-t.C:
	}
	t.Stop()
	killGroup(p.pgid)
	t = time.NewTimer(reapWait)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
	}
}

func (p *process) writeLoop() {
	for {
		select {
		case line := <-p.writes:
			if _, err := p.stdin.Write(line); err != nil {
				// A closed pipe mostly means the engine died: its exit
				// status says more than the broken pipe, so the waiter
				// gets the chance to say it first.
				t := time.NewTimer(drainWait)
				select {
				case <-p.exited:
				case <-t.C:
				}
				t.Stop()
				if p.end(&Failure{Reason: ReasonCrash, Err: fmt.Errorf("the engine does not read its input: %w", err)}) {
					killGroup(p.pgid)
				}
				return
			}
		case <-p.done:
			return
		}
	}
}

func (p *process) readLoop() {
	defer close(p.readerDone)
	br := bufio.NewReaderSize(p.stdout, 64<<10)
	for {
		line, err := readLine(br, maxLineBytes)
		if errors.Is(err, errLineTooLong) {
			p.kill(&Failure{Reason: ReasonInvalidOutput, Err: err})
			return
		}
		if len(bytes.TrimSpace(line)) > 0 {
			id, r, bad := decodeResponse(line)
			if bad != nil {
				p.kill(bad)
				return
			}
			p.deliver(id, r)
		}
		if err != nil {
			p.mu.Lock()
			p.eof = err == io.EOF
			p.mu.Unlock()
			return // the waiter says why the process ended
		}
	}
}

// deliver hands r to the request waiting for id; an answer nobody waits
// for any more (its caller gave up) is dropped.
func (p *process) deliver(id uint64, r reply) {
	p.mu.Lock()
	ch, ok := p.pending[id]
	delete(p.pending, id)
	p.mu.Unlock()
	if ok {
		ch <- r
	}
}

func (p *process) waitLoop() {
	err := p.cmd.Wait()
	killGroup(p.pgid) // what it left running may hold its stdout
	t := time.NewTimer(drainWait)
	select {
	case <-p.readerDone:
	case <-t.C:
	}
	t.Stop()
	if err == nil {
		p.end(&Failure{Reason: ReasonCrash, Err: errors.New("the engine exited")})
	} else {
		p.end(&Failure{Reason: ReasonCrash, Err: fmt.Errorf("the engine exited: %w", err)})
	}
	p.stdout.Close()
	close(p.exited)
}

// readLine reads one line, newline included, of at most limit bytes; the
// last line may lack its newline (and come with io.EOF).
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > limit {
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}
