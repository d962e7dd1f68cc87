package engines

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// The external-engine tests run this test binary again as the engine
// program: the child runs TestHelperEngine, which serves the role
// helperEnv names on its stdin and stdout.
const helperEnv = "STEER_ENGINE_HELPER"

// helperGateEnv names the FIFO the "gated" helper reads before it serves.
const helperGateEnv = "STEER_ENGINE_GATE"

// TestHelperEngine is not a test: it is the engine program of the
// external-engine tests (see helperRoles).
func TestHelperEngine(t *testing.T) {
	role, ok := helperRoles[os.Getenv(helperEnv)]
	if !ok {
		t.Skip("the engine program of the external-engine tests")
	}
	wd, _ := os.Getwd()
	fmt.Fprintf(os.Stderr, "helper started in %s\n", wd)
	h := &helper{out: bufio.NewWriter(os.Stdout)}
	if role.start != nil {
		role.start()
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, maxLineBytes)
	for in.Scan() {
		var req struct {
			ID     uint64          `json:"id"`
			Method Method          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "helper: bad request:", err)
			os.Exit(2)
		}
		if req.Method == MethodInfo {
			h.result(req.ID, map[string]any{"version": "helper-1", "ownsCompaction": false})
			continue
		}
		role.serve(h, req.ID, req.Method, req.Params)
	}
	if role.ignoreEOF {
		time.Sleep(time.Hour) // until killed
	}
	os.Exit(0)
}

// helper writes a helper engine's answers.
type helper struct {
	out *bufio.Writer
}

func (h *helper) line(v any) {
	b, _ := json.Marshal(v)
	h.out.Write(append(b, '\n'))
	h.out.Flush()
}

func (h *helper) result(id uint64, v any) { h.line(map[string]any{"id": id, "result": v}) }

// echo answers as a pass-through engine: assemble sends the messages back
// with the system prompt as the addition, compact delegates.
func echo(h *helper, id uint64, m Method, params json.RawMessage) {
	switch m {
	case MethodAssemble:
		var p struct {
			SystemPrompt string          `json:"systemPrompt"`
			Messages     json.RawMessage `json:"messages"`
		}
		_ = json.Unmarshal(params, &p)
		h.result(id, map[string]any{"messages": p.Messages, "systemPromptAddition": p.SystemPrompt})
	case MethodCompact:
		h.result(id, map[string]any{"delegate": true})
	default:
		h.result(id, map[string]any{})
	}
}

// helperRole is one way a helper engine behaves after answering info.
type helperRole struct {
	start     func() // before serving
	serve     func(h *helper, id uint64, m Method, params json.RawMessage)
	ignoreEOF bool // keeps running when its input closes
}

var helperRoles = map[string]helperRole{
	"echo": {serve: echo},
	// never-compacts answers every request as echo does but compact, which
	// it never answers.
	"never-compacts": {serve: func(h *helper, id uint64, m Method, params json.RawMessage) {
		if m == MethodCompact {
			fmt.Fprintf(os.Stderr, "ignoring compact %d\n", id)
			return
		}
		echo(h, id, m, params)
	}},
	"error": {serve: func(h *helper, id uint64, _ Method, _ json.RawMessage) {
		h.line(map[string]any{"id": id, "error": map[string]any{"message": "no index for this session"}})
	}},
	"wrong-shape": {serve: func(h *helper, id uint64, _ Method, _ json.RawMessage) { h.result(id, "a string") }},
	"no-id": {serve: func(h *helper, _ uint64, _ Method, _ json.RawMessage) {
		h.line(map[string]any{"result": map[string]any{}})
	}},
	"exit-after-info": {serve: func(*helper, uint64, Method, json.RawMessage) {
		fmt.Fprintln(os.Stderr, "helper: giving up")
		os.Exit(3)
	}},
	// stale holds its first answer until the second request arrives.
	"stale": {serve: func() func(*helper, uint64, Method, json.RawMessage) {
		var held []func()
		return func(h *helper, id uint64, m Method, params json.RawMessage) {
			if held == nil {
				held = append(held, func() { echo(h, id, m, params) })
				fmt.Fprintf(os.Stderr, "holding %d\n", id)
				return
			}
			for _, f := range held {
				f()
			}
			held = held[:0]
			echo(h, id, m, params)
		}
	}()},
	// grandchild starts a process that shares its stdout and outlives it
	// unless its process group is killed, and ignores the end of its input.
	"grandchild": {start: func() {
		cmd := exec.Command("sleep", "600")
		cmd.Stdout = os.Stdout
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "helper: sleep:", err)
			os.Exit(2)
		}
	}, serve: echo, ignoreEOF: true},
	// gated says its pid, then answers nothing, the handshake included,
	// until the FIFO helperGateEnv names is opened and closed by the test.
	"gated": {start: func() {
		fmt.Fprintf(os.Stderr, "gated pid %d\n", os.Getpid())
		gate, err := os.Open(os.Getenv(helperGateEnv))
		if err != nil {
			fmt.Fprintln(os.Stderr, "helper: gate:", err)
			os.Exit(2)
		}
		_, _ = io.Copy(io.Discard, gate)
		gate.Close()
	}, serve: echo},
}

// helperConfig is an external engine running the helper in role.
func helperConfig(t *testing.T, role string) (ExternalConfig, *stderrLines) {
	t.Helper()
	if _, ok := helperRoles[role]; !ok {
		t.Fatalf("no helper role %q", role)
	}
	lines := newStderrLines()
	return ExternalConfig{
		Name:    "helper",
		Command: []string{os.Args[0], "-test.run=^TestHelperEngine$"},
		// A -race child otherwise waits a second before it exits.
		Env:    append(os.Environ(), helperEnv+"="+role, "GORACE=atexit_sleep_ms=0"),
		Stderr: lines,
	}, lines
}

// stderrLines is an engine's stderr as the tests see it: every line, on a
// channel and kept.
type stderrLines struct {
	mu      sync.Mutex
	partial bytes.Buffer
	all     []string
	ch      chan string
}

func newStderrLines() *stderrLines { return &stderrLines{ch: make(chan string, 256)} }

func (s *stderrLines) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.partial.Write(p)
	for {
		line, err := s.partial.ReadString('\n')
		if err != nil {
			s.partial.WriteString(line) // not a whole line yet
			return len(p), nil
		}
		line = strings.TrimSuffix(line, "\n")
		s.all = append(s.all, line)
		select {
		case s.ch <- line:
		default:
		}
	}
}

// await returns the next line starting with prefix, failing the test when
// none comes within a generous bound.
func (s *stderrLines) await(t *testing.T, prefix string) string {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case line := <-s.ch:
			if strings.HasPrefix(line, prefix) {
				return line
			}
		case <-timeout:
			t.Fatalf("the engine never wrote %q on stderr; it wrote %q", prefix, s.lines())
		}
	}
}

func (s *stderrLines) lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.all...)
}

// count is how many lines so far start with prefix.
func (s *stderrLines) count(prefix string) int {
	n := 0
	for _, line := range s.lines() {
		if strings.HasPrefix(line, prefix) {
			n++
		}
	}
	return n
}
