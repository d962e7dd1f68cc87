package tui

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/tui/msgs"
)

// TestPlanTarget: what /plan asks for from each mode.
func TestPlanTarget(t *testing.T) {
	for _, tc := range []struct {
		name   string
		st     planState
		want   planWant
		mode   runner.ApprovalMode
		change bool
	}{
		{"toggle from ask", planState{mode: runner.ApprovalAsk}, planToggle, runner.ApprovalPlan, true},
		{"toggle from plan goes back", planState{mode: runner.ApprovalPlan, left: runner.ApprovalAuto}, planToggle, runner.ApprovalAuto, true},
		{"toggle from plan, nothing left", planState{mode: runner.ApprovalPlan}, planToggle, runner.ApprovalAsk, true},
		{"on while on", planState{mode: runner.ApprovalPlan}, planOn, runner.ApprovalPlan, false},
		{"off while off", planState{mode: runner.ApprovalAuto}, planOff, runner.ApprovalAsk, false},
		{"off from plan", planState{mode: runner.ApprovalPlan, left: runner.ApprovalNever}, planOff, runner.ApprovalNever, true},
		{"on from never", planState{mode: runner.ApprovalNever}, planOn, runner.ApprovalPlan, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mode, change := planTarget(tc.st, tc.want)
			if mode != tc.mode || change != tc.change {
				t.Fatalf("planTarget = %s, %v; want %s, %v", mode, change, tc.mode, tc.change)
			}
		})
	}
	st := planState{mode: runner.ApprovalAuto}.switched(runner.ApprovalPlan, "/p.md")
	if st.left != runner.ApprovalAuto || st.file != "/p.md" {
		t.Fatalf("switched into plan = %+v", st)
	}
	if st = st.switched(runner.ApprovalPlan, "/p.md"); st.left != runner.ApprovalAuto {
		t.Fatalf("plan again forgot the mode left: %+v", st)
	}
}

// planAnswers runs cmd and what it leads to, and returns the plan
// question's answers among the messages (CloseDialogMsg is routed).
func planAnswers(m Model, cmd tea.Cmd) (Model, []tea.Msg) {
	var got []tea.Msg
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		if c == nil {
			return
		}
		switch msg := c().(type) {
		case approvePlanMsg, editPlanMsg, keepPlanningMsg:
			got = append(got, msg)
		case tea.BatchMsg:
			for _, c := range msg {
				run(c)
			}
		case msgs.CloseDialogMsg:
			next, _ := m.Update(msg)
			m = next.(Model)
		default:
			if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice { // tea.Sequence
				for i := range v.Len() {
					if c, ok := v.Index(i).Interface().(tea.Cmd); ok {
						run(c)
					}
				}
			}
		}
	}
	run(cmd)
	return m, got
}

// TestPlanQuestionIgnoresTypedAhead: the plan's question is answered by
// single keys, so keys typed as it opens go to the editor; a key pressed
// alone after the pause answers: y into ask, a into auto, e and Ctrl+G
// edit, n and Esc (at once) keep planning.
func TestPlanQuestionIgnoresTypedAhead(t *testing.T) {
	const path = "/state/plans/s_1.md"
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	approve := func(mode runner.ApprovalMode) []tea.Msg { return []tea.Msg{approvePlanMsg{mode: mode}} }
	edit := []tea.Msg{editPlanMsg{path: path}}
	keep := []tea.Msg{keepPlanningMsg{}}
	for _, tc := range []struct {
		name       string
		keys       []keyAt
		want       []tea.Msg
		wantEditor string
	}{
		{"y as it opens", []keyAt{{0, runeKey("y")}}, nil, "y"},
		{"a sentence typed across its opening", []keyAt{{-300, runeKey("a")}, {-150, runeKey("n")}, {0, runeKey("y")}, {150, runeKey("e")}}, nil, "anye"},
		{"a burst long after", []keyAt{{ms(2000), runeKey("yes")}}, nil, "yes"},
		{"y alone after the pause", []keyAt{{ms(600), runeKey("y")}}, approve(runner.ApprovalAsk), ""},
		{"a alone after the pause", []keyAt{{ms(600), runeKey("a")}}, approve(runner.ApprovalAuto), ""},
		{"e edits", []keyAt{{ms(600), runeKey("e")}}, edit, ""},
		{"ctrl+g edits", []keyAt{{ms(600), tea.KeyMsg{Type: tea.KeyCtrlG}}}, edit, ""},
		{"n keeps planning", []keyAt{{ms(600), runeKey("n")}}, keep, ""},
		{"Esc as it opens keeps planning", []keyAt{{0, tea.KeyMsg{Type: tea.KeyEsc}}}, keep, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := &fakeClock{t: epoch}
			m := New(nil, Options{Now: clk.Now})
			opened := false
			var got []tea.Msg
			for _, k := range tc.keys {
				if !opened && k.at >= 0 {
					next, _ := m.Update(runEvents(agent.Annotation{Kind: runner.AnnotationPlan,
						Data: runner.PlanInfo{Path: path, Text: "# Plan\n\n1. add x.go\n"}}))
					m, opened = next.(Model), true
					if v := m.View(); !contains(v, "The plan") || !contains(v, "1. add x.go") || !contains(v, path) {
						t.Fatalf("the question does not show the plan:\n%s", v)
					}
				}
				clk.t = epoch.Add(k.at)
				next, cmd := m.Update(k.key)
				var a []tea.Msg
				m, a = planAnswers(next.(Model), cmd)
				got = append(got, a...)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("answers %v, want %v", got, tc.want)
			}
			if open := m.hasDialog(planTag); open != (tc.want == nil) {
				t.Fatalf("the question open: %v with answers %v", open, got)
			}
			if v := m.input.Value(); v != tc.wantEditor {
				t.Fatalf("the editor holds %q, want %q", v, tc.wantEditor)
			}
		})
	}
}

// TestProgramPlanMode runs the real program on a runtime: /plan shows plan
// mode and the plan file; the model's write of a file in the workspace is
// refused with the mode's reason; its write of the plan file opens the
// question; a (after the pause) switches to auto and sends the plan, as
// edited on disk, as the next message.
func TestProgramPlanMode(t *testing.T) {
	ws, plans := t.TempDir(), t.TempDir()
	planCall := agenttest.Reply()
	script := agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "write", `{"path":"x.go","content":"package x\n"}`).Stop(agent.StopReasonToolUse),
		planCall,
		agenttest.Reply().Text("planned").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("carried out").Stop(agent.StopReasonStop))
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream}},
		Tools:     tools.New(ws), Workspace: ws, PlanDir: plans, Approval: runner.ApprovalAsk, Interactive: true,
		Now: agenttest.Clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	host := runner.NewHost(rt)
	t.Cleanup(func() {
		host.AbortWith(runner.AbortQuit)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = host.WaitForIdle(ctx)
	})
	clk := &fakeClock{t: epoch}
	h := newHarness(t, host, 100, 40, func(o *Options) { o.Now = clk.Now })
	h.typeText("/plan")
	h.key(tea.KeyEnter, false)
	h.waitView("⏸ plan mode", "plan mode: only read-only tools run")
	path := host.PlanFile()
	if h.m.plan.file != path {
		t.Fatalf("the TUI's plan file %q, the runtime's %q", h.m.plan.file, path)
	}
	args, _ := json.Marshal(map[string]any{"path": path, "content": "# Plan\n\n1. add x.go\n"})
	planCall.ToolCall("c2", "write", string(args)).Stop(agent.StopReasonToolUse)

	h.typeText("plan x")
	h.key(tea.KeyEnter, false)
	h.waitFor("the plan's question", func(m Model) bool { return m.hasDialog(planTag) })
	h.waitFor("the run's end", func(m Model) bool { return !m.running })
	if _, err := os.Stat(filepath.Join(ws, "x.go")); err == nil {
		t.Fatal("x.go was written in plan mode")
	}
	if v := h.m.View(); !contains(v, "1. add x.go") {
		t.Fatalf("the question does not show the plan:\n%s", v)
	}
	msgsNow := host.State().Messages
	if r := toolResultText(msgsNow, "c1"); r != tools.PlanRefusal(path) {
		t.Fatalf("write x.go: %q", r)
	}
	if err := os.WriteFile(path, []byte("# Plan\n\n1. add x.go, tested\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	clk.Add(time.Second) // a deliberate key
	h.typeText("a")
	h.waitView("tool approval is now auto", "carried out")
	if host.ApprovalMode() != runner.ApprovalAuto || strings.Contains(h.m.View(), "⏸ plan mode") {
		t.Fatalf("mode %s after approval; view:\n%s", host.ApprovalMode(), h.m.View())
	}
	reqs := script.Requests()
	last := reqs[len(reqs)-1].Messages
	if got := last[len(last)-1].TextContent(); got != runner.PlanInstruction("# Plan\n\n1. add x.go, tested\n") {
		t.Fatalf("sent %q", got)
	}
}

// toolResultText is the text of tool call id's result among msgs.
func toolResultText(msgs []agent.Message, id string) string {
	for _, m := range msgs {
		if m.Role == agent.RoleToolResult && m.ToolCallID == id {
			return m.TextContent()
		}
	}
	return ""
}
