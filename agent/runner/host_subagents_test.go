package runner

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/tools"
)

// TestHostReportsSubagentProgress: the current session's sub-agent sends
// its progress to the host's subscribers, ending with its answer, under the
// session id the task call returned.
func TestHostReportsSubagentProgress(t *testing.T) {
	dir := t.TempDir()
	store := storeFor(t, dir)
	h := startHost(t, Options{
		Providers: []Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: delegating}},
		Store:     store, Workspace: t.TempDir(), Now: agenttest.Clock,
	})
	rt := h.Current()
	var mu sync.Mutex
	var progress []SubagentProgress
	child := ""
	h.Subscribe(func(ev agent.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case agent.Annotation:
			if p, ok := e.Data.(SubagentProgress); ok {
				progress = append(progress, p)
			}
		case agent.ToolExecutionEnd:
			if d, ok := e.Result.Details.(TaskDetails); ok {
				child = d.SessionID
			}
		}
	})
	if err := h.Prompt(context.Background(), "delegate count"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	mu.Lock()
	seen := append([]SubagentProgress(nil), progress...)
	mu.Unlock()
	if len(seen) < 2 {
		t.Fatalf("progress %+v, want the start and the answer", seen)
	}
	last := seen[len(seen)-1]
	if child == "" || last.SessionID != child || last.State != SubagentAnswered || last.Doing != "done: count" {
		t.Errorf("last progress %+v of child %q, want its answer", last, child)
	}
	if got := last.Summary(); got != "answered · done: count" {
		t.Errorf("Summary() = %q", got)
	}
	// Back in the session after another, the snapshot says where its
	// sub-agent stands.
	parentID := h.SessionID()
	var loaded []SessionLoaded
	h.Subscribe(func(ev agent.Event) {
		if a, ok := ev.(agent.Annotation); ok && a.Kind == AnnotationSessionLoaded {
			loaded = append(loaded, a.Data.(SessionLoaded))
		}
	})
	if err := h.NewSession(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := h.SwitchSession(context.Background(), parentID); err != nil {
		t.Fatal(err)
	}
	if n := len(loaded); n != 2 || len(loaded[1].Subagents) != 1 || loaded[1].Subagents[0].State != SubagentAnswered {
		t.Errorf("snapshots %+v, want the parent's with its answered sub-agent", loaded)
	}
	// Answered and closed, the child's session is free for others to open.
	other := openStore(t, dir)
	defer other.Close()
	claim, err := other.ClaimSession(context.Background(), child)
	if err != nil {
		t.Fatalf("the answered sub-agent's session is still held: %v", err)
	}
	_ = claim.Release(context.Background())
}

// touchingChild is delegating, except that a child calls the touch tool
// before it answers.
func touchingChild(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
	last := llm.Messages[len(llm.Messages)-1]
	if last.Role == agent.RoleUser && last.TextContent() == "touch it" {
		return agenttest.NewScript(agenttest.Reply().ToolCall("child_call", "touch", `{}`).Stop(agent.StopReasonToolUse)).Stream(ctx, m, llm, opts)
	}
	return delegating(ctx, m, llm, opts)
}

// TestHostAnswersASubagentsApproval: in ask mode a sub-agent's call asks the
// host's front end (its request names the child's session), and the answer
// reaches the child.
func TestHostAnswersASubagentsApproval(t *testing.T) {
	store := storeFor(t, t.TempDir())
	tool := countingTool{ran: make(chan struct{}, 1)}
	h := startHost(t, Options{
		Providers: []Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: touchingChild}},
		Store:     store, Workspace: t.TempDir(), Now: agenttest.Clock,
		Tools: []agent.Tool{tool}, Approval: tools.ModeAsk, Interactive: true,
	})
	rt := h.Current()
	asked := make(chan ApprovalRequest, 1)
	h.Subscribe(func(ev agent.Event) {
		if a, ok := ev.(agent.Annotation); ok && a.Kind == AnnotationApprovalRequest {
			asked <- a.Data.(ApprovalRequest)
		}
	})
	if err := h.Prompt(context.Background(), "delegate touch it"); err != nil {
		t.Fatal(err)
	}
	var req ApprovalRequest
	select {
	case req = <-asked:
	case <-time.After(10 * time.Second):
		t.Fatal("the sub-agent's call never asked")
	}
	if req.ID != "child_call" || req.SessionID == "" || req.SessionID == h.SessionID() {
		t.Fatalf("request %+v, want the child's call in the child's session", req)
	}
	// The running child's session is shown as it runs, read-only; its
	// parent goes on in the background.
	parentID := h.SessionID()
	if err := h.SwitchSession(context.Background(), req.SessionID); err != nil {
		t.Fatalf("opening the running sub-agent's session: %v", err)
	}
	if st := h.State(); st.SessionID != req.SessionID || !st.Running || transcriptText(st.Messages) != "touch it||" {
		t.Errorf("the child's session shows %s running %v: %q", st.SessionID, st.Running, transcriptText(st.Messages))
	}
	if _, _, err := h.Steer(context.Background(), "hello"); !errors.Is(err, ErrSubagentSession) {
		t.Errorf("input to a sub-agent's session: %v", err)
	}
	if bg := h.Background(); len(bg) != 1 || bg[0].SessionID != parentID || bg[0].Approvals != 1 {
		t.Errorf("background %+v, want the parent with its child's question", bg)
	}
	if err := h.ApproveIn(req.SessionID, req.ID, ApproveOnce); err != nil {
		t.Fatal(err)
	}
	select {
	case <-tool.ran:
	case <-time.After(10 * time.Second):
		t.Fatal("the approved call never ran")
	}
	waitIdle(t, rt)
	// Answered, the child's session opens afresh on its own, writable.
	if err := h.SwitchSession(context.Background(), req.SessionID); err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	owned := h.owns(h.current)
	h.mu.Unlock()
	if h.SessionID() != req.SessionID || !owned {
		t.Errorf("the answered sub-agent's session did not open writable")
	}
	if err := h.SwitchSession(context.Background(), parentID); err != nil {
		t.Fatal(err)
	}
	if got := h.SessionID(); got != parentID {
		t.Errorf("switched back to %s, want the parent %s", got, parentID)
	}
}
