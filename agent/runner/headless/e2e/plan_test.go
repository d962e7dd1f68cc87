package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/headless"
)

// TestRunPlan: `steer run --plan` refuses a write with plan mode's reason
// and ends naming the session's plan file under the state directory; a run
// continuing the session writes the plan there, a plan event carries it,
// and stderr names the file; rpc's plan_approve switches the mode and sends
// the plan as the next message.
func TestRunPlan(t *testing.T) {
	s := newSandbox(t)
	r := callTool(t, s, []string{"--plan"}, "write", map[string]any{"path": "x.go", "content": "package x\n"})
	files := ofType(r.lines, headless.EventPlanFile)
	if len(files) != 1 || files[0]["written"] != false {
		t.Fatalf("plan_file events %v, want one, not written", files)
	}
	plan, _ := files[0]["path"].(string)
	if !r.isError || !strings.HasPrefix(r.result, "plan mode: only read-only tools run") || !strings.Contains(r.result, plan) {
		t.Fatalf("write x.go in plan mode: %q (error %v)", r.result, r.isError)
	}
	if real, _ := filepath.EvalSymlinks(s.stateDir); filepath.Dir(plan) != filepath.Join(real, "plans") {
		t.Fatalf("plan file %s is not under %s/plans", plan, s.stateDir)
	}
	if fileExists(filepath.Join(s.workspace, "x.go")) {
		t.Fatal("x.go was written in plan mode")
	}

	const text = "# Plan\n\n1. write x.go\n"
	r = callTool(t, s, []string{"--plan", "--continue"}, "write", map[string]any{"path": plan, "content": text})
	if r.isError {
		t.Fatalf("the plan's write: %q", r.result)
	}
	plans := ofType(r.lines, "plan")
	if len(plans) != 1 || plans[0]["path"] != plan || plans[0]["text"] != text {
		t.Fatalf("plan events %v", plans)
	}
	if files := ofType(r.lines, headless.EventPlanFile); len(files) != 1 || files[0]["written"] != true || files[0]["path"] != plan {
		t.Fatalf("plan_file events %v, want the plan written", files)
	}
	code, _, stderr := s.run(nil, "--pace", "0", "--plan", "--continue", "run", "look around")
	if code != headless.ExitOK || !strings.Contains(stderr, "steer: plan: "+plan+"\n") {
		t.Fatalf("steer run --plan: exit %d, stderr %q", code, stderr)
	}

	in := `{"type":"plan_approve","mode":"auto","id":"a"}` + "\n" + `{"type":"get_state","id":"s"}` + "\n"
	code, stdout, stderr := s.run(strings.NewReader(in), "--pace", "0", "--plan", "--continue", "rpc")
	if code != 0 {
		t.Fatalf("rpc: exit %d: %s", code, stderr)
	}
	lines := jsonLines(t, stdout)
	for _, l := range ofType(lines, "response") {
		if l["success"] != true {
			t.Fatalf("rpc %v", l)
		}
		if d, _ := l["data"].(map[string]any); l["id"] == "s" && d["approvalMode"] != "auto" {
			t.Fatalf("get_state after plan_approve: %v", d)
		}
	}
	if modes := ofType(lines, "approval_mode"); len(modes) != 1 || modes[0]["mode"] != "auto" {
		t.Fatalf("approval_mode events %v", modes)
	}
	sent, _ := json.Marshal(runner.PlanInstruction(text))
	if !strings.Contains(stdout, `"role":"user","content":`+string(sent)) {
		t.Fatalf("the plan was not sent as the next message (%s)", sent)
	}
}
