package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/steer-tui/steer/agent/childproc"
)

// The server's process: its start in a group of its own, its pipes, and
// how the end of its output and its exit become failures.

// spawn starts the process, in its own group, and connects to it.
func (s *server) spawn(gen int, exited chan struct{}, stderr *childproc.Tail) (*jsonrpc2.Conn, error) {
	cmd := exec.Command(s.cfg.Command, s.cfg.Args...)
	// A copy: every server shares s.env's backing array.
	cmd.Dir, cmd.Env = s.dir, slices.Clip(s.env)
	for k, v := range s.cfg.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	childproc.OwnGroup(cmd)
	// Pipes of our own rather than StdoutPipe: the connection reads until
	// EOF, which Wait's closing of its pipe would race.
	inR, inW, err := os.Pipe()
	if err != nil {
		close(exited)
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		close(exited)
		return nil, err
	}
	// stderr too, so that Wait returns when the server exits, not when
	// the last of its children (gopls's crash monitor) closes it.
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		close(exited)
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	err = cmd.Start()
	closeAll(inR, outW, errW)
	if err != nil {
		closeAll(inW, outR, errR)
		close(exited)
		return nil, fmt.Errorf("cannot start %s: %w", s.cfg.Command, err)
	}
	go func() {
		_, _ = io.Copy(stderr, errR)
		errR.Close()
	}()
	stream := &watchedStream{ObjectStream: jsonrpc2.NewBufferedStream(pipes{outR, inW}, jsonrpc2.VSCodeObjectCodec{}),
		failed: func(err error) { s.readFailed(gen, exited, err) }}
	conn := jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.HandlerWithError(s.handler(gen)),
		jsonrpc2.SetLogger(discardLogger{}))
	s.mu.Lock()
	current := gen == s.gen
	if current {
		s.pid, s.conn = cmd.Process.Pid, conn
	}
	s.mu.Unlock()
	go func() {
		err := cmd.Wait()
		s.fail(gen, exitReason(err)) // before exited closes: see failure
		close(exited)
	}()
	if !current { // stopped while spawning
		childproc.KillGroup(cmd.Process.Pid)
		conn.Close()
		return nil, errors.New("stopped")
	}
	return conn, nil
}

func exitReason(err error) string {
	if err == nil {
		return "exited (status 0)"
	}
	return "exited (" + err.Error() + ")"
}

// readFailed is the end of the server's output: garbage fails it at once;
// an end of file is the process exiting, reported as such by its wait,
// unless it is still running after exitGrace.
func (s *server) readFailed(gen int, exited chan struct{}, err error) {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, os.ErrClosed) {
		select {
		case <-exited:
		case <-time.After(exitGrace):
			s.fail(gen, "closed its output")
		}
		return
	}
	s.fail(gen, "wrote what is not LSP: "+err.Error())
}

// release kills a process group and closes its connection.
func release(pid int, conn *jsonrpc2.Conn) {
	if pid > 0 {
		childproc.KillGroup(pid)
	}
	if conn != nil {
		conn.Close()
	}
}

// pipes is the server's stdout and stdin as one stream.
type pipes struct {
	io.Reader
	io.WriteCloser
}

func (p pipes) Close() error {
	err := p.WriteCloser.Close()
	if c, ok := p.Reader.(io.Closer); ok {
		return errors.Join(err, c.Close())
	}
	return err
}

// watchedStream reports why reading the server's output stopped, which
// the connection only logs.
type watchedStream struct {
	jsonrpc2.ObjectStream
	once   sync.Once
	failed func(error)
}

func (w *watchedStream) ReadObject(v any) error {
	err := w.ObjectStream.ReadObject(v)
	if err != nil {
		w.once.Do(func() { w.failed(err) })
	}
	return err
}

// discardLogger drops the connection's logs: what matters of them (a
// protocol error) reaches watchedStream.
type discardLogger struct{}

func (discardLogger) Printf(string, ...any) {}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}
