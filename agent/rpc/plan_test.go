package rpc

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/tools"
)

// TestServerPlanMode: set_approval_mode plan is an approval_mode event and
// get_state's approvalMode and planFile; plan_approve before a plan is
// written fails, after it switches the mode and sends the plan as the
// next message.
func TestServerPlanMode(t *testing.T) {
	script := agenttest.NewScript(agenttest.Reply().Text("on it").Stop(agent.StopReasonStop))
	h := newHarnessWith(t, script, runner.Options{PlanDir: t.TempDir(), Interactive: true})
	h.send(`{"type":"set_approval_mode","mode":"plan","id":"m"}`)
	ev := h.event(string(runner.NoticeApprovalMode))
	if r := h.response("m"); r["success"] != true {
		t.Fatalf("set_approval_mode: %v", r)
	}
	plan := h.rt.PlanFile()
	if ev["mode"] != "plan" || ev["planFile"] != plan {
		t.Fatalf("approval_mode event %v, want plan with %s", ev, plan)
	}
	h.send(`{"type":"get_state","id":"s"}`)
	if st := h.response("s").data(); st["approvalMode"] != "plan" || st["planFile"] != plan {
		t.Fatalf("get_state: %v", st)
	}
	h.send(`{"type":"plan_approve","mode":"auto","id":"early"}`)
	if r := h.response("early"); r["success"] != false || !strings.Contains(fmt.Sprint(r["error"]), "no plan has been written") {
		t.Fatalf("plan_approve with no plan: %v", r)
	}
	if err := os.MkdirAll(filepath.Dir(plan), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plan, []byte("1. do it\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.send(`{"type":"plan_approve","mode":"ask","id":"a"}`)
	if r := h.response("a"); r["success"] != true {
		t.Fatalf("plan_approve: %v", r)
	}
	h.event("agent_end")
	if h.rt.ApprovalMode() != tools.ModeAsk {
		t.Fatalf("mode = %s, want ask", h.rt.ApprovalMode())
	}
	reqs := script.Requests()
	msgs := reqs[len(reqs)-1].Messages
	if got := msgs[len(msgs)-1].TextContent(); got != runner.PlanInstruction("1. do it") {
		raw, _ := json.Marshal(msgs)
		t.Fatalf("the message sent: %q (%s)", got, raw)
	}
}
