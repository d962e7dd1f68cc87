package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools/permissions"
)

// TestPlanDecide: plan mode's verdict on each kind of call, the plan
// file's write, and the rules that still count.
func TestPlanDecide(t *testing.T) {
	const plan = "/state/plans/s1.md"
	read := Access{Tool: "read", Paths: []string{"/ws/a.go"}}
	readOut := Access{Tool: "read", Paths: []string{"/etc/hosts"}, Outside: true}
	writeCode := Access{Tool: "write", Paths: []string{"/ws/x.go"}, Mutating: true}
	writePlan := Access{Tool: "write", Paths: []string{plan}, Outside: true, Mutating: true}
	editPlan := Access{Tool: "edit", Paths: []string{plan}, Outside: true, Mutating: true}
	bash := Access{Tool: "bash", Paths: []string{"/ws"}, Mutating: true}
	fetch := Access{Tool: "fetch", Mutating: true}
	mcpRead := Access{Tool: "docs_search"}
	mcpWrite := Access{Tool: "db_drop", Mutating: true}
	undecided := permissions.Decision{Verdict: permissions.Undecided}
	allowed := permissions.Decision{Verdict: permissions.Allowed, Rule: "Bash(go test:*)"}
	denied := permissions.Decision{Verdict: permissions.Denied, Rule: "Write(/state/**)"}
	for _, tc := range []struct {
		name      string
		d         permissions.Decision
		vote      HookVote
		a         Access
		alwaysAsk string
		want      Verdict
		refused   string
	}{
		{"read runs", undecided, HookNone, read, "", Run, ""},
		{"ls runs", undecided, HookNone, Access{Tool: "ls"}, "", Run, ""},
		{"find runs", undecided, HookNone, Access{Tool: "find"}, "", Run, ""},
		{"grep runs", undecided, HookNone, Access{Tool: "grep"}, "", Run, ""},
		{"todo runs", undecided, HookNone, Access{Tool: "todo"}, "", Run, ""},
		{"diagnostics runs", undecided, HookNone, Access{Tool: "diagnostics"}, "", Run, ""},
		{"a read-only MCP tool runs", undecided, HookNone, mcpRead, "", Run, ""},
		{"a read outside asks, as in ask", undecided, HookNone, readOut, "", Ask, ""},
		{"fetch asks per domain", undecided, HookNone, fetch, "", Ask, ""},
		{"fetch a rule allows runs", permissions.Decision{Verdict: permissions.Allowed}, HookNone, fetch, "", Run, ""},
		{"write of code is refused", undecided, HookNone, writeCode, "", Refuse, RefusedByPlan},
		{"edit of code is refused", undecided, HookNone, Access{Tool: "edit", Paths: []string{"/ws/x.go"}, Mutating: true}, "", Refuse, RefusedByPlan},
		{"bash is refused", undecided, HookNone, bash, "", Refuse, RefusedByPlan},
		{"an allow rule does not run bash", allowed, HookNone, bash, "", Refuse, RefusedByPlan},
		{"a hook's allow does not run a write", undecided, HookAllow, writeCode, "", Refuse, RefusedByPlan},
		{"a mutating MCP tool is refused", undecided, HookNone, mcpWrite, "", Refuse, RefusedByPlan},
		{"task is refused", undecided, HookNone, Access{Tool: "task", Mutating: true}, "", Refuse, RefusedByPlan},
		{"the plan file's write runs unasked", undecided, HookNone, writePlan, "", Run, ""},
		{"the plan file's edit runs unasked", undecided, HookNone, editPlan, "", Run, ""},
		{"the plan file under a protected path runs", undecided, HookNone, writePlan, "write to a protected path: " + plan, Run, ""},
		{"a deny rule refuses the plan file", denied, HookNone, writePlan, "", Refuse, RefusedByRule},
		{"a deny rule refuses a read", denied, HookNone, read, "", Refuse, RefusedByRule},
		{"bash naming the plan file is refused", undecided, HookNone, Access{Tool: "bash", Paths: []string{plan}, Mutating: true}, "", Refuse, RefusedByPlan},
		{"a write of the plan file and more is refused", undecided, HookNone,
			Access{Tool: "write", Paths: []string{plan, "/ws/x.go"}, Mutating: true}, "", Refuse, RefusedByPlan},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := decide(ModePlan, plan, tc.vote, tc.d, tc.a, tc.alwaysAsk)
			if r.verdict != tc.want || r.refused != tc.refused {
				t.Fatalf("verdict = %v (%q: %s), want %v (%q)", r.verdict, r.refused, r.text, tc.want, tc.refused)
			}
			if tc.refused == RefusedByPlan && r.text != PlanRefusal(plan) {
				t.Errorf("text = %q, want the mode's reason naming the plan file", r.text)
			}
		})
	}
}

// TestPlanDecideNoPlanFile: with no plan file named nothing is written.
func TestPlanDecideNoPlanFile(t *testing.T) {
	a := Access{Tool: "write", Paths: []string{"/ws/x.go"}, Mutating: true}
	if r := decide(ModePlan, "", HookNone, permissions.Decision{}, a, ""); r.verdict != Refuse {
		t.Fatalf("verdict = %v, want refuse", r.verdict)
	}
}

// TestGatePlanMode: through a real gate, plan mode refuses a write in the
// workspace, lets the plan file outside it be written and edited without
// asking, and SetMode back to ask asks again.
func TestGatePlanMode(t *testing.T) {
	ws := t.TempDir()
	state := t.TempDir()
	plan := ResolvePlanFile(filepath.Join(state, "plans", "s1.md"))
	fake := &fakeApprover{answers: []Decision{AllowOnce}}
	g := NewGate(ModeAsk, fake).WithRules(NoRules(ws))
	g.SetMode(ModePlan, plan)
	byName := map[string]agent.Tool{}
	for _, tool := range g.Wrap(New(ws)) {
		byName[tool.Spec().Name] = tool
	}
	r := execute(t, byName["write"], map[string]any{"path": "x.go", "content": "package x\n"})
	if d, _ := RefusalOf(r.Details); !r.IsError || d.Refused != RefusedByPlan || !strings.Contains(text(r), plan) {
		t.Fatalf("write x.go in plan mode: %q (%+v)", text(r), r.Details)
	}
	if _, err := os.Stat(filepath.Join(ws, "x.go")); err == nil {
		t.Fatal("x.go was written")
	}
	r = execute(t, byName["write"], map[string]any{"path": plan, "content": "# Plan\n\n1. do it\n"})
	if r.IsError {
		t.Fatalf("the plan's write: %q", text(r))
	}
	r = execute(t, byName["edit"], map[string]any{"path": plan, "edits": []any{map[string]any{"oldText": "do it", "newText": "do it well"}}})
	if r.IsError {
		t.Fatalf("the plan's edit: %q", text(r))
	}
	if got, _ := os.ReadFile(plan); string(got) != "# Plan\n\n1. do it well\n" {
		t.Fatalf("plan file = %q", got)
	}
	if len(fake.requests) != 0 {
		t.Fatalf("plan mode asked %d times", len(fake.requests))
	}
	g.SetMode(ModeAsk, plan)
	if g.Mode() != ModeAsk {
		t.Fatalf("Mode = %s", g.Mode())
	}
	if r := execute(t, byName["write"], map[string]any{"path": "x.go", "content": "package x\n"}); r.IsError || len(fake.requests) != 1 {
		t.Fatalf("ask mode after plan: %q, %d requests", text(r), len(fake.requests))
	}
}
