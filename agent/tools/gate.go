package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools/permissions"
)

// Decision is a person's answer to a Request. The zero value denies.
type Decision int

// The decisions.
const (
	// Deny refuses the call; the model gets "denied by the user".
	Deny Decision = iota
	// AllowOnce runs this call.
	AllowOnce
	// AllowSession runs this call and records Request.Grant, the rules as
	// narrow as the call, for the rest of the session: a later call they
	// cover runs without asking.
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
	// Parts are a command's simple commands with the rules' verdict on
	// each; one part for other tools.
	Parts []permissions.Part
	// Reason says why the call asks when no rule but the call itself made
	// it ask ("command substitution", "write to a protected path …").
	Reason string
	// Grant are the rules AllowSession records, as written.
	Grant []string
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
// as rules; call Gate once per session. A call that was approved may
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
	wd, _ := os.Getwd()
	return Gater{&gate{mode: mode, approver: approver, rules: NoRules(wd)}}
}

// WithRules makes the gate judge every call by rb's permission rules
// first (see rule); call it before the gate wraps any tool.
func (g Gater) WithRules(rb Rulebook) Gater {
	g.g.rules = rb
	return g
}

// Grant puts rules in force for the rest of the session, after the
// config's (/permissions adds them; an "allow for this session" answer
// records its own).
func (g Gater) Grant(rules ...permissions.Rule) {
	if g.g != nil {
		g.g.grant(rules)
	}
}

// Revoke takes the session's rule of kind and text out of force; it
// reports whether there was one.
func (g Gater) Revoke(kind, text string) bool {
	if g.g == nil {
		return false
	}
	g.g.mu.Lock()
	defer g.g.mu.Unlock()
	n := len(g.g.grants)
	g.g.grants = slices.DeleteFunc(slices.Clone(g.g.grants), func(r permissions.Rule) bool { return string(r.Kind) == kind && r.Text == text })
	return len(g.g.grants) < n
}

// Grants are the session's rules: what "allow for this session" answers
// recorded and /permissions added.
func (g Gater) Grants() []permissions.Rule {
	if g.g == nil {
		return nil
	}
	g.g.mu.Lock()
	defer g.g.mu.Unlock()
	return slices.Clone(g.g.grants)
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
	approver Approver
	hooks    CallHooks // nil: none
	rules    Rulebook

	mu       sync.Mutex
	mode     Mode
	planFile string             // ModePlan's plan file, "" in the other modes
	grants   []permissions.Rule // the session's "allow for this session" answers
}

// judge is the rules' decision on a call, the session's grants counted.
func (g *gate) judge(a Access, args map[string]any) (permissions.Call, permissions.Env, permissions.Decision) {
	g.mu.Lock()
	grants := g.grants
	g.mu.Unlock()
	// grants is never changed in place: grant and Revoke make new slices
	c, env := permissionCall(a, args), g.rules.Env()
	return c, env, permissions.Evaluate(withGrants(g.rules.Rules(), grants), c, env)
}

func (g *gate) grant(rules []permissions.Rule) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, r := range rules {
		r.Source = "session"
		g.grants = append(slices.Clip(g.grants), r)
	}
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
	c, env, d := t.gate.judge(a, args)
	alwaysAsk := alwaysAsks(a, args, env)
	mode, planFile := t.gate.policy()
	switch r := decide(mode, planFile, vote, d, a, alwaysAsk); r.verdict {
	case Refuse:
		return refusal(r.refused, r.text), nil
	case Ask:
		if res, refused := t.ask(ctx, callID, args, a, d, askReason(d, alwaysAsk), t.gate.narrow(c, env, d)); refused {
			return res, nil
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
func (t gatedTool) ask(ctx context.Context, callID string, args map[string]any, a Access,
	pd permissions.Decision, why string, grant []permissions.Rule) (agent.ToolResult, bool) {
	texts := ruleTexts(grant)
	if t.gate.approver == nil {
		return refusal(RefusedUnattended, unattendedReason(a, why, texts, pd.Verdict == permissions.Undecided)), true
	}
	d, err := t.gate.approver.Approve(ctx, Request{
		CallID: callID, Tool: a.Tool, Args: args, Summary: a.Summary, Diff: a.Diff,
		Paths: a.Paths, Outside: a.Outside, Mutating: a.Mutating,
		Parts: pd.Parts, Reason: shownReason(pd, why), Grant: texts,
	})
	switch {
	case err != nil:
		return refusal(RefusedNoAnswer, fmt.Sprintf("not run: no approval was given (%v)", err)), true
	case d == AllowSession:
		t.gate.grant(grant)
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

// narrow is the grant an "allow for this session" answer records for c.
// A tool whose calls the rules cannot tell apart (an opaque one) is
// granted whole: its name is the narrowest rule there is.
func (g *gate) narrow(c permissions.Call, env permissions.Env, d permissions.Decision) []permissions.Rule {
	if rules := permissions.Narrow(g.rules.Rules(), c, env); len(rules) > 0 {
		return rules
	}
	if d.Verdict != permissions.Undecided {
		return nil
	}
	if r, err := permissions.Parse(c.Tool, permissions.Allow); err == nil {
		return []permissions.Rule{r}
	}
	return nil
}

// alwaysAsks says why a call asks whatever the mode and the rules say
// (a deny rule still refuses it): a file tool's write to a protected path,
// or a command asking the sandbox to let it write outside what it may.
func alwaysAsks(a Access, args map[string]any, env permissions.Env) string {
	if p := protectedWrite(a, env); p != "" {
		return "write to a protected path: " + shownPath(p)
	}
	if a.Tool == "bash" {
		if ps := AllowWritePaths(args); len(ps) > 0 {
			return "let the sandbox allow writing " + strings.Join(ps, ", ")
		}
	}
	return ""
}

func ruleTexts(rules []permissions.Rule) []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = r.Text
	}
	return out
}

// shownReason is why the dialog says a call asks: nothing for a call no
// rule covers, which asks because of the mode.
func shownReason(d permissions.Decision, why string) string {
	if d.Verdict == permissions.Undecided && why == d.Reason {
		return ""
	}
	return why
}
