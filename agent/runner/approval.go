package runner

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/agent/tools/permissions"
)

// The annotations of the approval flow, in the run's event stream.
const (
	// AnnotationApprovalRequest: a tool call waits for the user's answer
	// (Data: ApprovalRequest). rpc clients answer with the approve command.
	AnnotationApprovalRequest = "tool_approval_request"
	// AnnotationApprovalResolved: the wait ended (Data: ApprovalResolved),
	// answered here or elsewhere, or cut short by an abort.
	AnnotationApprovalResolved = "tool_approval_resolved"
)

// ApprovalRequest is a tool call waiting for approval, as front ends show
// it. ID is the tool call's id, which the answer names.
type ApprovalRequest struct {
	ID       string         `json:"toolCallId"`
	ToolName string         `json:"toolName"`
	Args     map[string]any `json:"args"`
	Summary  string         `json:"summary"`
	Diff     string         `json:"diff,omitempty"`
	Paths    []string       `json:"paths"`
	Outside  bool           `json:"outside"`
	// SessionID names the sub-agent's session that asks; "" when the
	// session's own run does.
	SessionID string `json:"sessionId,omitempty"`
	// Parts are a command's simple commands, each with the rules' verdict
	// (one part for another tool); Reason says why the call asks when
	// the call itself, not a rule, makes it ask.
	Parts  []ApprovalPart `json:"parts"`
	Reason string         `json:"reason,omitempty"`
	// Grant are the rules that "always" records for the session, and
	// what the TUI offers to save to a config file.
	Grant []string `json:"grant"`
}

// ApprovalPart is one part of a call with the rules' verdict on it:
// "allowed", "asks", "denied" or "undecided" (no rule covers it: the
// approval mode decides). Rule is the rule that decided it; Reason why a
// part asks by itself; Wrapper marks a wrapper (sudo, timeout, …) judged
// as itself, whose inner command is a part of its own.
type ApprovalPart struct {
	Text    string `json:"text"`
	Verdict string `json:"verdict"`
	Rule    string `json:"rule,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Wrapper bool   `json:"wrapper,omitempty"`
}

func approvalParts(ps []permissions.Part) []ApprovalPart {
	out := make([]ApprovalPart, len(ps))
	for i, p := range ps {
		out[i] = ApprovalPart{Text: p.Text, Verdict: string(p.Verdict), Rule: p.Rule, Reason: p.Reason, Wrapper: p.Wrapper}
	}
	return out
}

// ApprovalResolved ends an ApprovalRequest: Decision is "allow", "always",
// "deny", or "" when the wait was cut short (Error says why).
type ApprovalResolved struct {
	ID       string `json:"toolCallId"`
	Decision string `json:"decision"`
	Error    string `json:"error,omitempty"`
	// SessionID is the request's (ApprovalRequest.SessionID).
	SessionID string `json:"sessionId,omitempty"`
}

// ApprovalDecision is the user's answer to an ApprovalRequest.
type ApprovalDecision = tools.Decision

// The answers: allow this call, allow what the request's Grant rules
// cover for the rest of the session, deny (the model reads "denied by the user" and the turn ends).
const (
	ApproveOnce    = tools.AllowOnce
	ApproveSession = tools.AllowSession
	ApproveDeny    = tools.Deny
)

// ParseApprovalDecision reads an answer as rpc's approve command and the
// TUI's dialog name them: allow, always, deny.
func ParseApprovalDecision(s string) (ApprovalDecision, error) {
	for _, d := range []ApprovalDecision{ApproveOnce, ApproveSession, ApproveDeny} {
		if d.String() == s {
			return d, nil
		}
	}
	return ApproveDeny, fmt.Errorf("unknown decision %q (want allow, always or deny)", s)
}

// approvals are the tool calls of a session's runs waiting for the user's
// answer: it is the tools' Approver when someone can answer
// (Options.Interactive), announces each request and its end in the run's
// events, and refuses every request once no one can answer any more. It
// calls only what approvalDeps gives it.
type approvals struct {
	deps approvalDeps

	mu      sync.Mutex
	waiting map[string]waitingApproval
	// gone closes when no one can answer any more (refuse); why says so,
	// and refuses every request from then on.
	gone chan struct{}
	why  error
}

// approvalDeps is what the approvals read of the runtime.
type approvalDeps struct {
	// asker names the sub-agent's session that asks (ApprovalRequest.
	// SessionID); "" for a session's own runs.
	asker func() string
	// hold stops the run's clock and its lane timeout while a call waits;
	// what it returns starts them again.
	hold func() (resume func())
	// waiting hears of each request as it starts to wait (the
	// Notification hooks).
	waiting func(ApprovalRequest)
}

type waitingApproval struct {
	req    ApprovalRequest
	answer chan ApprovalDecision
}

func newApprovals(deps approvalDeps) *approvals {
	return &approvals{deps: deps, waiting: map[string]waitingApproval{}, gone: make(chan struct{})}
}

// add registers w; it returns the channel that closes when no one can
// answer, or why when that is so already.
func (a *approvals) add(w waitingApproval) (gone <-chan struct{}, why error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.why != nil {
		return nil, a.why
	}
	a.waiting[w.req.ID] = w
	return a.gone, nil
}

// approver is what the tools' gate asks (see ask).
func (a *approvals) approver() tools.Approver { return tools.ApproverFunc(a.ask) }

// ask announces the request in the run's events, holds the run's clock,
// and waits for answer, an abort (ctx) or refuse.
func (a *approvals) ask(ctx context.Context, q tools.Request) (tools.Decision, error) {
	req := ApprovalRequest{ID: q.CallID, ToolName: q.Tool, Args: q.Args, Summary: q.Summary,
		Diff: q.Diff, Paths: q.Paths, Outside: q.Outside, SessionID: a.deps.asker(),
		Parts: approvalParts(q.Parts), Reason: q.Reason, Grant: q.Grant}
	if req.Paths == nil {
		req.Paths = []string{}
	}
	if req.Grant == nil {
		req.Grant = []string{}
	}
	w := waitingApproval{req: req, answer: make(chan ApprovalDecision, 1)}
	gone, why := a.add(w)
	if why != nil {
		return tools.Deny, why
	}
	defer a.deps.hold()()
	agent.ToolAnnotate(ctx, agent.Annotation{Kind: AnnotationApprovalRequest, Data: req})
	if a.deps.waiting != nil {
		a.deps.waiting(req)
	}
	var resolved ApprovalResolved
	defer func() {
		a.mu.Lock()
		delete(a.waiting, req.ID)
		a.mu.Unlock()
		agent.ToolAnnotate(ctx, agent.Annotation{Kind: AnnotationApprovalResolved, Data: resolved})
	}()
	select {
	case d := <-w.answer:
		resolved = ApprovalResolved{ID: req.ID, Decision: d.String(), SessionID: req.SessionID}
		return d, nil
	case <-ctx.Done():
		resolved = ApprovalResolved{ID: req.ID, Error: "the run was aborted", SessionID: req.SessionID}
		return tools.Deny, context.Cause(ctx)
	case <-gone:
		why := a.refusal()
		resolved = ApprovalResolved{ID: req.ID, Error: why.Error(), SessionID: req.SessionID}
		return tools.Deny, why
	}
}

// answer answers the request of tool call id; a second answer finds
// nothing to answer.
func (a *approvals) answer(id string, d ApprovalDecision) error {
	a.mu.Lock()
	w, ok := a.waiting[id]
	delete(a.waiting, id)
	a.mu.Unlock()
	if !ok {
		return fmt.Errorf("no tool call %q is waiting for approval", id)
	}
	w.answer <- d
	return nil
}

// pending lists the calls waiting for an answer, by id.
func (a *approvals) pending() []ApprovalRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]ApprovalRequest, 0, len(a.waiting))
	for _, w := range a.waiting {
		out = append(out, w.req)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// approvalDesk answers the approval requests a session's run waits on,
// its own and its sub-agents'. It calls the approvals queue and, for a
// sub-agent's request, the sub-agents; sessionID names the session whose
// own requests these are.
type approvalDesk struct {
	approvals *approvals
	subs      *subagents
	sessionID func() string
	// answersChildren says that a host's front end answers the approval
	// requests of this runtime's sub-agents.
	answersChildren atomic.Bool
}

// Approve answers the approval request of tool call id.
func (k *approvalDesk) Approve(id string, d ApprovalDecision) error { return k.approvals.answer(id, d) }

// ApproveIn answers the approval request of tool call id that session
// sessionID's run waits on: this runtime's own when sessionID is "" or its
// session, else one of its sub-agents' (ApprovalRequest.SessionID). Call
// ids are unique only within one provider's answers; the session tells
// apart two calls of one id.
func (k *approvalDesk) ApproveIn(sessionID, id string, d ApprovalDecision) error {
	if sessionID == "" || sessionID == k.sessionID() {
		return k.Approve(id, d)
	}
	child := k.subs.child(sessionID)
	if child == nil {
		return fmt.Errorf("no sub-agent of this session runs in session %q", sessionID)
	}
	return child.Approve(id, d)
}

// PendingApprovals lists the calls waiting for an answer, by id, for a
// front end that attaches while one waits.
func (k *approvalDesk) PendingApprovals() []ApprovalRequest { return k.approvals.pending() }

// allApprovals are the requests a session's run waits on, its sub-agents'
// included.
func (k *approvalDesk) allApprovals() []ApprovalRequest {
	return append(k.PendingApprovals(), k.subs.childApprovals()...)
}
