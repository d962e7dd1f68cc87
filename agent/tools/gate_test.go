package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// fakeApprover answers with answers in order (Deny once they run out) and
// records every request.
type fakeApprover struct {
	mu       sync.Mutex
	answers  []Decision
	err      error
	requests []Request
}

func (f *fakeApprover) Approve(_ context.Context, req Request) (Decision, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, req)
	if f.err != nil {
		return Deny, f.err
	}
	if len(f.answers) == 0 {
		return Deny, nil
	}
	d := f.answers[0]
	f.answers = f.answers[1:]
	return d, nil
}

// opaqueTool cannot describe its calls; it counts its runs.
type opaqueTool struct{ runs *int }

func (opaqueTool) Spec() agent.ToolSpec { return agent.ToolSpec{Name: "opaque", Description: "x"} }
func (t opaqueTool) Execute(context.Context, string, map[string]any, agent.ToolUpdate) (agent.ToolResult, error) {
	*t.runs++
	return agent.TextResult("ran"), nil
}

// gateCall is one call through a gate and what should come of it.
type gateCall struct {
	tool   string
	args   map[string]any
	asked  bool   // the approver is asked
	result string // the result text contains this
	err    bool
	reason string // RefusalDetails.Refused, "" when the tool ran
}

func TestGate(t *testing.T) {
	readIn := map[string]any{"path": "in.txt"}
	readOut := map[string]any{"path": "link-out"}
	write := func(p string) map[string]any { return map[string]any{"path": p, "content": "new\n"} }
	tests := []struct {
		name    string
		mode    Mode
		nobody  bool // no approver at all
		answers []Decision
		calls   []gateCall
	}{
		{name: "ask: reads inside run unasked", mode: ModeAsk, calls: []gateCall{
			{tool: "read", args: readIn, result: "inside"},
			{tool: "ls", args: map[string]any{}, result: "in.txt"},
			{tool: "grep", args: map[string]any{"pattern": "inside"}, result: "in.txt:1: inside"},
		}},
		{name: "ask: deny", mode: ModeAsk, answers: []Decision{Deny}, calls: []gateCall{
			{tool: "write", args: write("a.txt"), asked: true, result: "denied by the user", err: true, reason: RefusedByUser},
		}},
		{name: "ask: allow once asks every time", mode: ModeAsk, answers: []Decision{AllowOnce, AllowOnce}, calls: []gateCall{
			{tool: "write", args: write("a.txt"), asked: true, result: "Created"},
			{tool: "write", args: write("b.txt"), asked: true, result: "Created"},
		}},
		{name: "ask: always remembers a rule as narrow as the call", mode: ModeAsk, answers: []Decision{AllowSession, Deny, AllowSession}, calls: []gateCall{
			{tool: "write", args: write("a.txt"), asked: true, result: "Created"},
			{tool: "write", args: write("a.txt"), result: "a.txt"},
			{tool: "write", args: write("b.txt"), asked: true, result: "denied by the user", err: true, reason: RefusedByUser},
			{tool: "read", args: readOut, asked: true, result: "SECRET CONTENT"},
			{tool: "read", args: readOut, result: "SECRET CONTENT"},
		}},
		{name: "ask: a read outside asks and, allowed, reads", mode: ModeAsk, answers: []Decision{AllowOnce, Deny}, calls: []gateCall{
			{tool: "read", args: readOut, asked: true, result: "SECRET CONTENT"},
			{tool: "read", args: readOut, asked: true, result: "denied by the user", err: true, reason: RefusedByUser},
		}},
		{name: "ask: a tool that cannot describe itself asks", mode: ModeAsk, answers: []Decision{AllowOnce}, calls: []gateCall{
			{tool: "opaque", args: map[string]any{"x": 1.0}, asked: true, result: "ran"},
		}},
		{name: "ask with nobody to answer", mode: ModeAsk, nobody: true, calls: []gateCall{
			{tool: "read", args: readIn, result: "inside"},
			{tool: "write", args: write("a.txt"), result: "--approve auto", err: true, reason: RefusedUnattended},
			{tool: "read", args: readOut, result: "needs approval", err: true, reason: RefusedUnattended},
		}},
		{name: "auto runs everything inside, never asks, refuses outside", mode: ModeAuto, calls: []gateCall{
			{tool: "write", args: write("a.txt"), result: "Created"},
			{tool: "bash", args: map[string]any{"command": "echo ran"}, result: "ran"},
			{tool: "opaque", args: map[string]any{}, result: "ran"},
			{tool: "read", args: readOut, result: `tool approval "auto" never asks`, err: true, reason: RefusedByPolicy},
			{tool: "write", args: write("../outside/new.txt"), result: "outside the workspace", err: true, reason: RefusedByPolicy},
		}},
		{name: "never refuses what changes or reaches out", mode: ModeNever, calls: []gateCall{
			{tool: "read", args: readIn, result: "inside"},
			{tool: "write", args: write("a.txt"), result: `tool approval is "never"`, err: true, reason: RefusedByPolicy},
			{tool: "read", args: readOut, result: "outside the workspace", err: true, reason: RefusedByPolicy},
			{tool: "opaque", args: map[string]any{}, result: `tool approval is "never"`, err: true, reason: RefusedByPolicy},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, _ := confinedTree(t)
			runs := 0
			fake := &fakeApprover{answers: tt.answers}
			var approver Approver = fake
			if tt.nobody {
				approver = nil
			}
			gated := NewGate(tt.mode, approver).WithRules(NoRules(ws)).Wrap(append(New(ws), opaqueTool{runs: &runs}))
			byName := map[string]agent.Tool{}
			for _, g := range gated {
				byName[g.Spec().Name] = g
			}
			for i, c := range tt.calls {
				asked := len(fake.requests)
				r := execute(t, byName[c.tool], c.args)
				if got := len(fake.requests) > asked; got != c.asked {
					t.Errorf("call %d (%s): asked %v, want %v", i, c.tool, got, c.asked)
				}
				if got := text(r); !strings.Contains(got, c.result) || r.IsError != c.err {
					t.Errorf("call %d (%s): result %q (error %v), want %q (error %v)", i, c.tool, got, r.IsError, c.result, c.err)
				}
				refusal, refused := RefusalOf(r.Details)
				if refusal.Refused != c.reason || refused != (c.reason != "") {
					t.Errorf("call %d (%s): refusal %+v, want %q", i, c.tool, refusal, c.reason)
				}
				if c.reason == RefusedByUser && strings.Contains(text(r), "SECRET") {
					t.Errorf("call %d: a denied read shows content", i)
				}
			}
			for _, name := range []string{"a.txt", "b.txt"} {
				_, err := os.Stat(filepath.Join(ws, name))
				wrote := false
				for _, c := range tt.calls {
					if c.tool == "write" && c.args["path"] == name && c.reason == "" {
						wrote = true
					}
				}
				if (err == nil) != wrote {
					t.Errorf("%s exists %v, want %v", name, err == nil, wrote)
				}
			}
		})
	}
}

// TestGateRequest: what the approver is shown for a write, an edit, a read
// outside and bash.
func TestGateRequest(t *testing.T) {
	ws, outside := confinedTree(t)
	fake := &fakeApprover{}
	gated := Gate(New(ws), ModeAsk, fake)
	byName := map[string]agent.Tool{}
	for _, g := range gated {
		byName[g.Spec().Name] = g
	}
	editArgs := map[string]any{"path": "in.txt", "edits": []any{map[string]any{"oldText": "inside", "newText": "changed"}}}
	calls := []struct {
		tool string
		args map[string]any
		want Request
	}{
		{"write", map[string]any{"path": "new.txt", "content": "one\ntwo\n"}, Request{
			Tool: "write", Summary: "create new.txt (2 lines, 8 B)", Paths: []string{filepath.Join(ws, "new.txt")}, Mutating: true,
			Diff: "--- a/new.txt\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n"}},
		{"edit", editArgs, Request{
			Tool: "edit", Summary: "edit in.txt (1 replacement)", Paths: []string{filepath.Join(ws, "in.txt")}, Mutating: true,
			Diff: "--- a/in.txt\n+++ b/in.txt\n@@ -1 +1 @@\n-inside\n+changed\n"}},
		{"read", map[string]any{"path": "link-out"}, Request{
			Tool: "read", Summary: "read link-out", Paths: []string{filepath.Join(outside, "secret.txt")}, Outside: true}},
		{"bash", map[string]any{"command": "make test"}, Request{
			Tool: "bash", Summary: "bash: make test", Paths: []string{newWorkspace(ws).root}, Mutating: true}},
	}
	for i, c := range calls {
		execute(t, byName[c.tool], c.args)
		if len(fake.requests) != i+1 {
			t.Fatalf("%s: %d requests, want %d", c.tool, len(fake.requests), i+1)
		}
		got := fake.requests[i]
		if got.CallID != "call-1" || got.Args == nil {
			t.Errorf("%s: call id %q, args %v", c.tool, got.CallID, got.Args)
		}
		got.CallID, got.Args = "", nil
		if got.Tool != c.want.Tool || got.Summary != c.want.Summary || got.Diff != c.want.Diff ||
			strings.Join(got.Paths, ",") != strings.Join(c.want.Paths, ",") ||
			got.Outside != c.want.Outside || got.Mutating != c.want.Mutating {
			t.Errorf("%s: request\n%+v\nwant\n%+v", c.tool, got, c.want)
		}
	}
}

func TestGateApproverError(t *testing.T) {
	ws := t.TempDir()
	fake := &fakeApprover{err: context.Canceled}
	gated := Gate([]agent.Tool{Write(ws)}, ModeAsk, fake)
	r := execute(t, gated[0], map[string]any{"path": "a.txt", "content": "x"})
	if d, _ := RefusalOf(r.Details); !r.IsError || d.Refused != RefusedNoAnswer || !strings.Contains(text(r), "context canceled") {
		t.Errorf("result %q %+v, want a no-answer refusal", text(r), r.Details)
	}
	if _, err := os.Stat(filepath.Join(ws, "a.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a.txt was written without approval")
	}
}

func TestRefusalOf(t *testing.T) {
	tests := []struct {
		details any
		want    string
		ok      bool
	}{
		{RefusalDetails{Refused: RefusedByUser}, RefusedByUser, true},
		{map[string]any{"refused": "policy"}, RefusedByPolicy, true},
		{map[string]any{"exitCode": 1.0}, "", false},
		{agent.CommandDetails{}, "", false},
		{nil, "", false},
	}
	for _, tt := range tests {
		got, ok := RefusalOf(tt.details)
		if got.Refused != tt.want || ok != tt.ok {
			t.Errorf("RefusalOf(%#v) = %+v, %v; want %q, %v", tt.details, got, ok, tt.want, tt.ok)
		}
	}
}

func TestDecisionString(t *testing.T) {
	for d, want := range map[Decision]string{Deny: "deny", AllowOnce: "allow", AllowSession: "always", Decision(9): "Decision(9)"} {
		if got := d.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(d), got, want)
		}
	}
}
