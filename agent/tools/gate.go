package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/steer-tui/steer/agent"
)

// Decision is a person's answer to a Request. The zero value denies.
type Decision int

// The decisions.
const (
	// Deny refuses the call; the model gets "denied by the user".
	Deny Decision = iota
	// AllowOnce runs this call.
	AllowOnce
	// AllowSession runs this call and every later call of the same tool
	// through the same gate without asking again.
	AllowSession
)

func (d Decision) String() string {
	switch d {
	case Deny:
		return "deny"
	case AllowOnce:
		return "allow"
	case AllowSession:
		return "always"
	}
	return fmt.Sprintf("Decision(%d)", int(d))
}

// Request asks a person whether a tool call may run.
type Request struct {
	// CallID is the model's id of the tool call.
	CallID string
	// Tool is the tool's name and Args the call's arguments (shared with the
	// call: never modify them).
	Tool string
	Args map[string]any
	// Summary is one line saying what the call does.
	Summary string
	// Diff is the unified diff of a write or an edit, "" for other calls or
	// when it cannot be worked out.
	Diff string
	// Paths are what the call touches, resolved (see Access).
	Paths []string
	// Outside is set when a path lies outside the workspace; Mutating when
	// the call changes files or runs a command.
	Outside  bool
	Mutating bool
}

// Approver answers approval requests; the runner implements it with the
// TUI's dialog or the rpc approve command.
//
// Approve is called on the goroutine of the tool call, possibly for several
// calls of one batch at once, and blocks until the person answers or ctx
// ends (an abort), in which case it returns ctx's error. A returned error
// refuses the call.
type Approver interface {
	Approve(ctx context.Context, req Request) (Decision, error)
}

// ApproverFunc adapts a function to Approver.
type ApproverFunc func(ctx context.Context, req Request) (Decision, error)

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, req Request) (Decision, error) { return f(ctx, req) }

// The reasons a gate refuses a call, in RefusalDetails.
const (
	// RefusedByUser: the person answered deny.
	RefusedByUser = "user"
	// RefusedByPolicy: the "never" mode refuses the call.
	RefusedByPolicy = "policy"
	// RefusedUnattended: the call needs approval and nobody can answer.
	RefusedUnattended = "unattended"
	// RefusedNoAnswer: asking failed, typically because the run was aborted
	// while it waited.
	RefusedNoAnswer = "no-answer"
)

// RefusalDetails are the Details of a result the gate returned instead of
// running the tool. The runner ends the turn on RefusedByUser.
type RefusalDetails struct {
	Refused string `json:"refused"`
}

// RefusalOf reads a result's Details as RefusalDetails, whether they are the
// gate's own value or came back from JSON.
func RefusalOf(details any) (RefusalDetails, bool) {
	switch v := details.(type) {
	case RefusalDetails:
		return v, true
	case map[string]any:
		if s, ok := v["refused"].(string); ok {
			return RefusalDetails{Refused: s}, true
		}
	}
	return RefusalDetails{}, false
}

// deniedText is what the model reads when the person denies a call.
const deniedText = "denied by the user"

// Gate wraps tools so that each call goes through the approval policy of
// mode first (see Decide): it runs, is refused with an error result saying
// why, or waits for approver's answer. With a nil approver nobody can
// answer (steer run --approve ask): calls that would ask are refused with
// a result that names --approve auto.
//
// The wrapped tools share one memory of "allow for this session" answers,
// per tool name; call Gate once per session. A call that was approved may
// reach outside the workspace; without approval the file tools refuse to.
func Gate(tools []agent.Tool, mode Mode, approver Approver) []agent.Tool {
	return NewGate(mode, approver).Wrap(tools)
}

// Gater is one approval gate, for a tool set that changes while the
// session goes on (an MCP server's tools): each Wrap shares the gate's
// memory of "allow for this session" answers.
type Gater struct{ g *gate }

// NewGate makes a gate (see Gate).
func NewGate(mode Mode, approver Approver) Gater {
	return Gater{&gate{mode: mode, approver: approver, always: map[string]bool{}}}
}

// WithHooks makes the gate consult h around every call (see CallHooks);
// call it before the gate wraps any tool.
func (g Gater) WithHooks(h CallHooks) Gater {
	g.g.hooks = h
	return g
}

// Wrap puts tools behind the gate.
func (g Gater) Wrap(tools []agent.Tool) []agent.Tool {
	out := make([]agent.Tool, len(tools))
	for i, t := range tools {
		out[i] = gatedTool{inner: t, gate: g.g}
	}
	return out
}

type gate struct {
	mode     Mode
	approver Approver
	hooks    CallHooks // nil: none

	mu     sync.Mutex
	always map[string]bool // tool names allowed for the session
}

func (g *gate) allowedForSession(tool string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.always[tool]
}

func (g *gate) allowForSession(tool string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.always[tool] = true
}

type gatedTool struct {
	inner agent.Tool
	gate  *gate
}

func (t gatedTool) Spec() agent.ToolSpec { return t.inner.Spec() }

// Describe forwards to the wrapped tool.
func (t gatedTool) Describe(args map[string]any) Access { return describe(t.inner, args) }

func (t gatedTool) Execute(ctx context.Context, callID string, args map[string]any, update agent.ToolUpdate) (agent.ToolResult, error) {
	vote := HookNone
	if h := t.gate.hooks; h != nil {
		hv := h.Before(ctx, callID, t.inner.Spec().Name, args)
		if hv.Vote == HookDeny {
			return refusal(RefusedByHook, hv.Reason), nil
		}
		if hv.Args != nil {
			args = hv.Args
		}
		vote = hv.Vote
	}
	a := describe(t.inner, args)
	switch hookedDecision(vote, Decide(t.gate.mode, a), a) {
	case Refuse:
		return refusal(RefusedByPolicy, refusalReason(t.gate.mode, a)), nil
	case Ask:
		// A hook that asks is answered each time, whatever was allowed.
		if vote == HookAsk || !t.gate.allowedForSession(a.Tool) {
			if r, refused := t.ask(ctx, callID, args, a); refused {
				return r, nil
			}
		}
	}
	if a.Outside {
		ctx = withOutsideGrant(ctx)
	}
	res, err := t.inner.Execute(ctx, callID, args, update)
	if h := t.gate.hooks; h != nil && err == nil {
		res = h.After(ctx, callID, a.Tool, args, res)
	}
	return res, err
}

// ask puts the call to the approver; refused is set, with the result to
// return, unless the answer allows the call.
func (t gatedTool) ask(ctx context.Context, callID string, args map[string]any, a Access) (agent.ToolResult, bool) {
	if t.gate.approver == nil {
		return refusal(RefusedUnattended, unattendedReason(a)), true
	}
	d, err := t.gate.approver.Approve(ctx, Request{
		CallID: callID, Tool: a.Tool, Args: args, Summary: a.Summary, Diff: a.Diff,
		Paths: a.Paths, Outside: a.Outside, Mutating: a.Mutating,
	})
	switch {
	case err != nil:
		return refusal(RefusedNoAnswer, fmt.Sprintf("not run: no approval was given (%v)", err)), true
	case d == AllowSession:
		t.gate.allowForSession(a.Tool)
		return agent.ToolResult{}, false
	case d == AllowOnce:
		return agent.ToolResult{}, false
	default:
		return refusal(RefusedByUser, deniedText), true
	}
}

func refusal(reason, text string) agent.ToolResult {
	return agent.ToolResult{
		Content: []agent.Content{agent.Text(text)},
		Details: RefusalDetails{Refused: reason},
		IsError: true,
	}
}

// describe asks t what a call touches; a tool that cannot say counts as
// mutating, so that the policy never lets it through unseen.
func describe(t agent.Tool, args map[string]any) Access {
	if d, ok := t.(Describer); ok {
		a := d.Describe(args)
		a.Tool = t.Spec().Name
		return a
	}
	name := t.Spec().Name
	return Access{Tool: name, Mutating: true, Summary: name + " " + argsSummary(args)}
}

// argsSummary is a call's arguments as compact JSON, cut to one short line.
func argsSummary(args map[string]any) string {
	raw, err := json.Marshal(args)
	if err != nil {
		return "(arguments not shown)"
	}
	return clip(string(raw), summaryLen)
}

// DescribeCall is what a call of t touches, as the gate sees it: a tool that
// cannot say counts as mutating. Wrappers below the gate use it to stay as
// visible to the policy as the tool they wrap.
func DescribeCall(t agent.Tool, args map[string]any) Access { return describe(t, args) }
