package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// voteHooks votes the same on every call and appends "after" to every
// result; it records the arguments each side saw.
type voteHooks struct {
	verdict          HookVerdict
	before, afterArg []map[string]any
}

func (h *voteHooks) Before(_ context.Context, _, _ string, args map[string]any) HookVerdict {
	h.before = append(h.before, args)
	return h.verdict
}

func (h *voteHooks) After(_ context.Context, _, _ string, args map[string]any, res agent.ToolResult) agent.ToolResult {
	h.afterArg = append(h.afterArg, args)
	res.Content = append(res.Content, agent.Text("after"))
	return res
}

// TestGateWithHooks: what the hooks' vote does to the policy's verdict:
// deny refuses before anything is asked (RefusedByHook), ask asks even in
// auto mode, allow runs inside the workspace unasked but never outside,
// and a policy refusal stands; After sees what ran.
func TestGateWithHooks(t *testing.T) {
	write := map[string]any{"path": "a.txt", "content": "new\n"}
	readOut := map[string]any{"path": "link-out"}
	tests := []struct {
		name   string
		mode   Mode
		vote   HookVote
		tool   string
		args   map[string]any
		asked  bool
		result string
		reason string
	}{
		{"deny refuses with the reason", ModeAuto, HookDeny, "write", write, false, "no writes", RefusedByHook},
		{"deny refuses what the policy would ask", ModeAsk, HookDeny, "write", write, false, "no writes", RefusedByHook},
		{"ask asks in auto mode", ModeAuto, HookAsk, "write", write, true, "Created", ""},
		{"ask asks for a read", ModeAsk, HookAsk, "read", map[string]any{"path": "in.txt"}, true, "inside", ""},
		{"ask does not lift a refusal", ModeNever, HookAsk, "write", write, false, `"never"`, RefusedByPolicy},
		{"allow skips the prompt inside", ModeAsk, HookAllow, "write", write, false, "Created", ""},
		{"allow does not reach outside", ModeAsk, HookAllow, "read", readOut, true, "SECRET", ""},
		{"allow does not lift a refusal", ModeNever, HookAllow, "write", write, false, `"never"`, RefusedByPolicy},
		{"none leaves the policy", ModeAsk, HookNone, "write", write, true, "Created", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, _ := confinedTree(t)
			fake := &fakeApprover{answers: []Decision{AllowOnce}}
			hooks := &voteHooks{verdict: HookVerdict{Vote: tt.vote, Reason: "no writes"}}
			var tool agent.Tool
			for _, g := range NewGate(tt.mode, fake).WithHooks(hooks).Wrap(New(ws)) {
				if g.Spec().Name == tt.tool {
					tool = g
				}
			}
			r := execute(t, tool, tt.args)
			if asked := len(fake.requests) > 0; asked != tt.asked {
				t.Errorf("asked %v, want %v", asked, tt.asked)
			}
			if !strings.Contains(text(r), tt.result) {
				t.Errorf("result %q, want %q", text(r), tt.result)
			}
			refusal, _ := RefusalOf(r.Details)
			if refusal.Refused != tt.reason {
				t.Errorf("refusal %q, want %q", refusal.Refused, tt.reason)
			}
			if ran := tt.reason == ""; ran != strings.HasSuffix(text(r), "after") || ran != (len(hooks.afterArg) == 1) {
				t.Errorf("ran %v but After saw %d calls (result %q)", ran, len(hooks.afterArg), text(r))
			}
		})
	}
}

// TestGateHookReplacesArguments: updatedInput is what the tool runs with,
// what the policy judges and what After sees.
func TestGateHookReplacesArguments(t *testing.T) {
	ws, _ := confinedTree(t)
	replaced := map[string]any{"path": "in.txt"}
	hooks := &voteHooks{verdict: HookVerdict{Args: replaced}}
	tool := NewGate(ModeAuto, nil).WithHooks(hooks).Wrap([]agent.Tool{Read(ws)})[0]
	r := execute(t, tool, map[string]any{"path": "link-out"})
	if got := text(r); !strings.Contains(got, "inside") || strings.Contains(got, "SECRET") {
		t.Errorf("result %q, want the replaced path's content", got)
	}
	if len(hooks.afterArg) != 1 || hooks.afterArg[0]["path"] != "in.txt" {
		t.Errorf("After saw %v", hooks.afterArg)
	}
}
