package runner

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner/export"
	"github.com/steer-tui/steer/agent/tools"
)

// TestPlanMode: in plan mode a write in the workspace is refused with the
// mode's reason, the prompt names the plan file, the plan file's write
// runs and publishes the plan; approving it reads the file again (the
// user's edit counts), switches the mode and sends the plan as the next
// instruction, whose request has no plan-mode note.
func TestPlanMode(t *testing.T) {
	ws, plans := t.TempDir(), t.TempDir()
	planFile := tools.ResolvePlanFile(filepath.Join(plans, "placeholder"))
	planFile = filepath.Dir(planFile) // the real directory; the session names the file
	writeArgs := func(path, content string) string {
		raw, _ := json.Marshal(map[string]any{"path": path, "content": content})
		return string(raw)
	}
	// the plan's call names the session's file, known once the runtime is
	planCall := agenttest.Reply()
	script := agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "write", writeArgs("x.go", "package x\n")).Stop(agent.StopReasonToolUse),
		planCall,
		agenttest.Reply().Text("The plan is written.").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("Doing it.").Stop(agent.StopReasonStop))
	rt := newRuntime(t, nil, script, Options{Workspace: ws, Tools: tools.New(ws), Approval: tools.ModeAsk,
		Interactive: true, PlanDir: plans})
	var mu sync.Mutex
	var published []PlanInfo
	var modes []ApprovalModeInfo
	defer rt.Subscribe(func(ev agent.Event) {
		if a, ok := ev.(agent.Annotation); ok && a.Kind == AnnotationPlan {
			mu.Lock()
			published = append(published, a.Data.(PlanInfo))
			mu.Unlock()
		}
	})()
	defer rt.SubscribeNotices(func(n Notice) {
		if n.Kind == NoticeApprovalMode {
			mu.Lock()
			modes = append(modes, n.Data.(ApprovalModeInfo))
			mu.Unlock()
		}
	})()

	if err := rt.SetApprovalMode(tools.ModePlan); err != nil {
		t.Fatal(err)
	}
	path := rt.PlanFile()
	if filepath.Dir(path) != planFile || filepath.Base(path) != rt.SessionID()+".md" {
		t.Fatalf("PlanFile = %s, want %s/<session>.md", path, planFile)
	}
	if st := rt.State(); st.Approval != tools.ModePlan || st.PlanFile != path {
		t.Fatalf("State: approval %q, plan file %q", st.Approval, st.PlanFile)
	}
	planCall.ToolCall("c2", "write", writeArgs(path, "# Plan\n\n1. add x.go\n")).Stop(agent.StopReasonToolUse)
	if err := rt.Prompt(context.Background(), "plan x"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)

	msgs := rt.State().Messages
	refused := toolResultOf(msgs, "c1")
	if !refused.IsError || refused.TextContent() != tools.PlanRefusal(path) {
		t.Fatalf("write x.go in plan mode: %q (error %v)", refused.TextContent(), refused.IsError)
	}
	if _, err := os.Stat(filepath.Join(ws, "x.go")); err == nil {
		t.Fatal("x.go was written in plan mode")
	}
	if r := toolResultOf(msgs, "c2"); r.IsError {
		t.Fatalf("the plan's write: %q", r.TextContent())
	}
	if first := script.Requests()[0].SystemPrompt; !strings.Contains(first, "<plan-mode>") || !strings.Contains(first, path) {
		t.Fatalf("the request's prompt has no plan-mode note naming %s:\n%s", path, first)
	}
	mu.Lock()
	got := append([]PlanInfo(nil), published...)
	mu.Unlock()
	if len(got) != 1 || got[0].Path != path || got[0].Text != "# Plan\n\n1. add x.go\n" {
		t.Fatalf("published plans = %+v", got)
	}

	if err := os.WriteFile(path, []byte("# Plan\n\n1. add x.go, tested\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, queued, err := rt.ApprovePlan(context.Background(), tools.ModeAuto); err != nil || queued {
		t.Fatalf("ApprovePlan = queued %v, %v; want a run started", queued, err)
	}
	waitIdle(t, rt)
	if rt.ApprovalMode() != tools.ModeAuto || rt.Permissions().Mode != tools.ModeAuto {
		t.Fatalf("mode after approval = %s (permissions %s)", rt.ApprovalMode(), rt.Permissions().Mode)
	}
	reqs := script.Requests()
	last := reqs[len(reqs)-1]
	if strings.Contains(last.SystemPrompt, "<plan-mode>") {
		t.Error("the request after approval still says plan mode")
	}
	want := PlanInstruction("# Plan\n\n1. add x.go, tested\n")
	if m := last.Messages[len(last.Messages)-1]; m.Role != agent.RoleUser || m.TextContent() != want {
		t.Fatalf("the instruction sent = %q, want %q", m.TextContent(), want)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(modes) != 2 || modes[0].Mode != tools.ModePlan || modes[0].PlanFile != path || modes[1].Mode != tools.ModeAuto {
		t.Fatalf("mode notices = %+v", modes)
	}
}

// TestApprovePlanRefuses: no plan written yet, or a mode a plan is not
// approved into, leaves the mode as it was.
func TestApprovePlanRefuses(t *testing.T) {
	rt := newRuntime(t, nil, agenttest.NewScript(), Options{Approval: tools.ModePlan, PlanDir: t.TempDir()})
	if _, _, err := rt.ApprovePlan(context.Background(), tools.ModeAsk); !errors.Is(err, ErrNoPlan) {
		t.Fatalf("ApprovePlan with no plan = %v, want ErrNoPlan", err)
	}
	if err := os.WriteFile(rt.PlanFile(), []byte("# Plan\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := rt.ApprovePlan(context.Background(), tools.ModeNever); err == nil {
		t.Fatal("a plan was approved into never")
	}
	if rt.ApprovalMode() != tools.ModePlan {
		t.Fatalf("mode = %s, want plan still", rt.ApprovalMode())
	}
	if err := rt.SetApprovalMode("bogus"); err == nil {
		t.Fatal("SetApprovalMode took an unknown mode")
	}
}

// toolResultOf is the result of tool call id among msgs.
func toolResultOf(msgs []agent.Message, id string) agent.Message {
	for _, m := range msgs {
		if m.Role == agent.RoleToolResult && m.ToolCallID == id {
			return m
		}
	}
	return agent.Message{}
}

// TestApprovalSwitchIsRecorded: a switch of the mode in a saved session is
// an entry of its tree, which the export carries.
func TestApprovalSwitchIsRecorded(t *testing.T) {
	store := openStore(t, t.TempDir())
	rt := newRuntime(t, store, agenttest.NewScript(agenttest.Reply().Text("ok").Stop(agent.StopReasonStop)),
		Options{PlanDir: t.TempDir()})
	if err := rt.Prompt(context.Background(), "hello"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	for _, mode := range []tools.Mode{tools.ModePlan, tools.ModeAuto} {
		if err := rt.SetApprovalMode(mode); err != nil {
			t.Fatal(err)
		}
	}
	waitIdle(t, rt)
	tree, err := rt.Tree(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range tree.Entries {
		if e.Kind == HistoryApprovalChange {
			got = append(got, e.Approval)
		}
	}
	if strings.Join(got, ",") != "plan,auto" {
		t.Fatalf("approval changes in the tree: %v", got)
	}
	s := exportTree(tree.Entries, tree.Leaf)
	var b strings.Builder
	if err := export.JSONL(&b, s, nil); err != nil || !strings.Contains(b.String(), `"type":"approval_change"`) ||
		!strings.Contains(b.String(), `"approval":"plan"`) {
		t.Fatalf("the export (%v):\n%s", err, b.String())
	}
}
