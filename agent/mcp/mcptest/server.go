// Package mcptest makes small MCP servers with the official SDK for steer's
// tests: one server with a tool of each content kind, progress, a prompt
// and resources (NewServer), served over HTTP by the test itself or over
// stdio by the test binary run again as a child (Command, MaybeServe), and
// faulty children that exit, hang or print garbage.
package mcptest

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Env names the variable that makes a test binary serve instead of
// testing; its value is the mode.
const Env = "STEER_MCPTEST_SERVER"

// PIDFileEnv names a file the serving child appends its pid to, for tests
// that check it is gone after steer quit.
const PIDFileEnv = "STEER_MCPTEST_PIDFILE"

// The modes a child serves in.
const (
	// ModeOK serves NewServer over stdio.
	ModeOK = "ok"
	// ModeExit writes a line to stderr and exits 3 before answering.
	ModeExit = "exit"
	// ModeHang reads nothing and answers nothing.
	ModeHang = "hang"
	// ModeGarbage writes lines that are not JSON-RPC to stdout.
	ModeGarbage = "garbage"
	// ModeStays serves like ModeOK but stays when its stdin closes, until
	// SIGTERM, which it notes in the pid file (a line "SIGTERM").
	ModeStays = "stays"
)

// PNG is the image the image tool returns: a 1×1 PNG.
var PNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")

// MaybeServe serves as the child the environment asks for, then exits;
// without Env it returns. Call it first in TestMain.
func MaybeServe() {
	mode := os.Getenv(Env)
	if mode == "" {
		return
	}
	if path := os.Getenv(PIDFileEnv); path != "" {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err == nil {
			fmt.Fprintln(f, os.Getpid())
			f.Close()
		}
	}
	switch mode {
	case ModeOK:
		err := NewServer(nil).Run(context.Background(), &sdk.StdioTransport{})
		if err != nil {
			fmt.Fprintln(os.Stderr, "mcptest:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case ModeStays:
		term := make(chan os.Signal, 1)
		signal.Notify(term, syscall.SIGTERM)
		_ = NewServer(nil).Run(context.Background(), &sdk.StdioTransport{})
		<-term
		if path := os.Getenv(PIDFileEnv); path != "" {
			if f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600); err == nil {
				fmt.Fprintln(f, "SIGTERM")
				f.Close()
			}
		}
		os.Exit(0)
	case ModeExit:
		fmt.Fprintln(os.Stderr, "fatal: the test server gave up")
		os.Exit(3)
	case ModeHang:
		fmt.Fprintln(os.Stderr, "hanging")
		time.Sleep(time.Hour)
	case ModeGarbage:
		fmt.Fprintln(os.Stderr, "writing garbage")
		for range 3 {
			fmt.Println("this is not JSON-RPC")
		}
		time.Sleep(time.Hour)
	}
	os.Exit(2)
}

// Command is how to start the test binary as a child in mode: the command,
// its arguments and its environment.
func Command(mode string) (command string, args []string, env map[string]string) {
	return os.Args[0], []string{"-test.run=^$"}, map[string]string{Env: mode}
}

// Calls tells a test what the server saw: each slow call's cancellation.
type Calls struct {
	mu        sync.Mutex
	cancelled chan struct{}
	once      sync.Once
}

// Cancelled is closed when a slow call was cancelled by the client.
func (c *Calls) Cancelled() <-chan struct{} {
	c.init()
	return c.cancelled
}

func (c *Calls) init() {
	c.once.Do(func() { c.cancelled = make(chan struct{}) })
}

func (c *Calls) cancel() {
	c.init()
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.cancelled:
	default:
		close(c.cancelled)
	}
}
