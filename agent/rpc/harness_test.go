package rpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
)

// deadline bounds every wait of a server test; nothing sleeps.
const deadline = 10 * time.Second

// otherModel is a second model of the test provider, for set_model.
var otherModel = agent.Model{Provider: "test", ID: "other", Name: "Other", API: "test", ContextWindow: 8000, MaxOutput: 1000,
	Reasoning: true, Input: []string{"text", "image"}, Cost: agent.ModelCost{Input: 1, Output: 2}}

// line is one output line, decoded.
type line map[string]any

func (l line) is(typ string) bool { return l["type"] == typ }

func (l line) isResponse(id string) bool { return l["type"] == "response" && l["id"] == id }

func (l line) data() map[string]any {
	d, _ := l["data"].(map[string]any)
	return d
}

// harness runs a Server over pipes against a scripted runtime.
type harness struct {
	t      *testing.T
	script *agenttest.Script
	rt     *runner.Runtime
	in     *io.PipeWriter
	lines  chan line // closed when the output ends
	served chan error
	cancel context.CancelCauseFunc
	result *error // Serve's result once seen
}

func newHarness(t *testing.T, script *agenttest.Script, opts ...Option) *harness {
	t.Helper()
	return newHarnessWith(t, script, runner.Options{}, opts...)
}

// newHarnessWith is newHarness on a runtime with ropts (a store, limits).
func newHarnessWith(t *testing.T, script *agenttest.Script, ropts runner.Options, opts ...Option) *harness {
	t.Helper()
	h := newHarnessStream(t, script.Stream, ropts, opts...)
	h.script = script
	return h
}

// newHarnessStream is a harness on the provider stream.
func newHarnessStream(t *testing.T, stream agent.StreamFn, ropts runner.Options, opts ...Option) *harness {
	t.Helper()
	ropts.Providers = []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model, otherModel}, Stream: stream}}
	ropts.Now = agenttest.Clock
	rt, err := runner.New(context.Background(), ropts)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancelCause(context.Background())
	h := &harness{t: t, rt: rt, in: inW, lines: make(chan line, 10000), served: make(chan error, 1), cancel: cancel}
	go h.readOutput(outR)
	go func() {
		err := NewServer(rt, inR, outW, opts...).Serve(ctx)
		_ = outW.Close()
		h.served <- err
	}()
	t.Cleanup(func() {
		cancel(nil)
		_ = inW.Close()
		if h.result == nil {
			select {
			case <-h.served:
			case <-time.After(deadline):
				t.Error("Serve did not return after the test")
			}
		}
	})
	return h
}

// cancelCause cancels Serve's context with cause, as main does on a signal.
func (h *harness) cancelCause(cause error) { h.cancel(cause) }

// readOutput decodes every output line, checking the framing.
func (h *harness) readOutput(r io.Reader) {
	defer close(h.lines)
	br := bufio.NewReader(r)
	for {
		raw, err := br.ReadBytes('\n')
		if len(raw) > 0 {
			if !bytes.HasSuffix(raw, []byte("\n")) || bytes.Contains(raw, []byte("\u2028")) || bytes.Contains(raw, []byte("\u2029")) {
				h.t.Errorf("badly framed output line %q", raw)
			}
			var l line
			if err := json.Unmarshal(raw, &l); err != nil {
				h.t.Errorf("output line is not a JSON object: %q", raw)
			}
			h.lines <- l
		}
		if err != nil {
			return
		}
	}
}

// send writes one command line.
func (h *harness) send(cmd string) {
	h.t.Helper()
	h.sendRaw(cmd + "\n")
}

func (h *harness) sendRaw(s string) {
	h.t.Helper()
	done := make(chan error, 1)
	go func() { _, err := io.WriteString(h.in, s); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			h.t.Fatalf("sending %q: %v", s, err)
		}
	case <-time.After(deadline):
		h.t.Fatalf("sending %q timed out", s)
	}
}

// next returns the next output line.
func (h *harness) next() line {
	h.t.Helper()
	select {
	case l, ok := <-h.lines:
		if !ok {
			h.t.Fatal("the output ended")
		}
		return l
	case <-time.After(deadline):
		h.t.Fatal("no output line within the deadline")
		return nil
	}
}

// until reads lines up to and including the first that matches.
func (h *harness) until(match func(line) bool) []line {
	h.t.Helper()
	var seen []line
	for {
		l := h.next()
		seen = append(seen, l)
		if match(l) {
			return seen
		}
	}
}

// response reads up to the response with id and returns it.
func (h *harness) response(id string) line {
	h.t.Helper()
	seen := h.until(func(l line) bool { return l.isResponse(id) })
	return seen[len(seen)-1]
}

// event reads up to the first event of typ and returns it.
func (h *harness) event(typ string) line {
	h.t.Helper()
	seen := h.until(func(l line) bool { return l.is(typ) })
	return seen[len(seen)-1]
}

// run reads up to both the run's agent_end and the response with id, which
// may come in either order, and returns the lines read; a failed response
// ends it at once, as no run follows.
func (h *harness) run(id string) (lines []line, resp line) {
	h.t.Helper()
	ended := false
	for !ended || resp == nil {
		l := h.next()
		lines = append(lines, l)
		ended = ended || l.is("agent_end")
		if l.isResponse(id) {
			resp = l
			if l["success"] != true {
				return lines, resp
			}
		}
	}
	return lines, resp
}

// wait returns Serve's result.
func (h *harness) wait() error {
	h.t.Helper()
	if h.result != nil {
		return *h.result
	}
	select {
	case err := <-h.served:
		h.result = &err
		return err
	case <-time.After(deadline):
		h.t.Fatal("Serve did not return")
		return nil
	}
}

// closeInput ends the input and returns Serve's result.
func (h *harness) closeInput() error {
	h.t.Helper()
	_ = h.in.Close()
	return h.wait()
}

// rest returns the lines left once the output has ended.
func (h *harness) rest() []line {
	h.t.Helper()
	var out []line
	for {
		select {
		case l, ok := <-h.lines:
			if !ok {
				return out
			}
			out = append(out, l)
		case <-time.After(deadline):
			h.t.Fatal("the output did not end")
		}
	}
}

// types lists the types of lines, leaving out message updates and responses.
func types(lines []line) []string {
	var out []string
	for _, l := range lines {
		if !l.is("message_update") && !l.is("response") {
			out = append(out, l["type"].(string))
		}
	}
	return out
}

func count(lines []line, match func(line) bool) int {
	n := 0
	for _, l := range lines {
		if match(l) {
			n++
		}
	}
	return n
}

func isType(typ string) func(line) bool { return func(l line) bool { return l.is(typ) } }

// isDelta matches a message_update carrying a text delta.
func isDelta(l line) bool {
	if !l.is("message_update") {
		return false
	}
	ev, _ := l["assistantMessageEvent"].(map[string]any)
	return ev["type"] == "text_delta"
}

// lastUserText returns the text of the last message of a request.
func lastUserText(t *testing.T, req agent.LLMContext) string {
	t.Helper()
	last := req.Messages[len(req.Messages)-1]
	if last.Role != agent.RoleUser {
		t.Fatalf("last message of the request is %s", last.Role)
	}
	return last.TextContent()
}
