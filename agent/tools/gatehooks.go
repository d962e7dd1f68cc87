package tools

import (
	"context"

	"github.com/steer-tui/steer/agent"
)

// CallHooks are consulted by a gate around every call it lets through its
// policy: the user's PreToolUse and PostToolUse hooks, which the runner
// supplies. Both are called on the goroutine of the tool call, possibly for
// several calls of one batch at once; ctx ends on an abort.
type CallHooks interface {
	// Before is asked before the approval step, with the call's arguments
	// (never modified).
	Before(ctx context.Context, callID, tool string, args map[string]any) HookVerdict
	// After gets the tool's result and returns it, with what the hooks add
	// to it.
	After(ctx context.Context, callID, tool string, args map[string]any, res agent.ToolResult) agent.ToolResult
}

// HookVote is what the hooks say about a call before it runs.
type HookVote int

// The votes.
const (
	// HookNone leaves the call to the approval policy.
	HookNone HookVote = iota
	// HookAllow runs a call inside the workspace without asking; a call
	// that reaches outside still goes through the policy, and a policy
	// that refuses the call still does.
	HookAllow
	// HookAsk asks the user even where the policy would run the call
	// without asking (auto mode, a read-only call).
	HookAsk
	// HookDeny refuses the call with Reason.
	HookDeny
)

// HookVerdict is the hooks' answer before a call.
type HookVerdict struct {
	Vote   HookVote
	Reason string
	// Args, when not nil, replace the call's arguments.
	Args map[string]any
}

// RefusedByHook: a PreToolUse hook denied the call. Unlike RefusedByUser
// it does not end the turn: the model reads the hook's reason and goes on.
const RefusedByHook = "hook"

// hookedDecision applies the hooks' vote to the policy's verdict v for a
// call with access a.
func hookedDecision(vote HookVote, v Verdict, a Access) Verdict {
	switch {
	case vote == HookAllow && v == Ask && !a.Outside:
		return Run
	case vote == HookAsk && v == Run:
		return Ask
	}
	return v
}
