package tui

import (
	"context"
	"encoding/json"
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

// writeTool stands for a tool that changes files: without Describe, the
// approval gate counts it as mutating.
type writeTool struct{ ran chan struct{} }

func (writeTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{Name: "scribble", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (w writeTool) Execute(context.Context, string, map[string]any, agent.ToolUpdate) (agent.ToolResult, error) {
	close(w.ran)
	return agent.TextResult("scribbled"), nil
}

func approvalRuntime(t *testing.T, tool agent.Tool) *runner.Runtime {
	t.Helper()
	script := agenttest.NewScript(
		agenttest.Reply().ToolCall("call_9", "scribble", `{"note":"\u001b]52;c;aGk=\u0007x"}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("All done.").Stop(agent.StopReasonStop))
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: script.Stream}},
		Tools:     []agent.Tool{tool}, Now: agenttest.Clock, Approval: tools.ModeAsk, Interactive: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		rt.Abort()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = rt.WaitForIdle(ctx)
	})
	return rt
}

// TestApprovalDialog: a call that needs approval opens a dialog naming the
// tool and its (sanitised) arguments; each answer does what it says.
func TestApprovalDialog(t *testing.T) {
	tests := []struct {
		name    string
		key     tea.KeyMsg
		wantRan bool
		want    string
	}{
		{"y allows once", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")}, true, "All done."},
		{"a allows for the session", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("a")}, true, "All done."},
		{"n denies", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")}, false, "denied by the user"},
		{"Esc denies", tea.KeyMsg{Type: tea.KeyEsc}, false, "denied by the user"},
		{"Enter takes the highlighted choice, allow once", tea.KeyMsg{Type: tea.KeyEnter}, true, "All done."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := writeTool{ran: make(chan struct{})}
			rt := approvalRuntime(t, tool)
			clk := &fakeClock{t: epoch}
			tm := startProgramAt(t, rt, clk)
			tm.Type("go")
			tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
			waitOutput(t, tm, "Allow scribble?", "(y) Allow once", "(n) Deny")
			clk.Add(time.Second) // a deliberate key, not one typed ahead
			tm.Send(tt.key)
			waitOutput(t, tm, tt.want)
			ran := false
			select {
			case <-tool.ran:
				ran = true
			default:
			}
			if ran != tt.wantRan {
				t.Fatalf("the tool ran = %v, want %v", ran, tt.wantRan)
			}
			final := quit(t, tm)
			if len(final.dialogs) != 0 {
				t.Fatalf("%d dialogs left open", len(final.dialogs))
			}
		})
	}
}

// TestApprovalTextIsSanitised: what the model wrote reaches the dialog with
// no escape sequence left in it.
func TestApprovalTextIsSanitised(t *testing.T) {
	text := approvalText(runner.ApprovalRequest{ID: "c", ToolName: "bash", Summary: "run \x1b]2;pwned\x07ls",
		Args: map[string]any{"command": "printf '\x1b]52;c;aGk=\x07'"}, Outside: true, Paths: []string{"/etc/\x1b[2Jpasswd"}})
	if strings.ContainsRune(text, '\x1b') || strings.ContainsRune(text, '\x07') {
		t.Fatalf("escape sequences survive: %q", text)
	}
	if !strings.Contains(text, "outside the workspace") {
		t.Fatalf("no warning for a path outside: %q", text)
	}
}

// TestApprovalAskedOnceAfterASwitch: a request listed in the snapshot of a
// session switched to, whose event follows, opens one question, not two.
func TestApprovalAskedOnceAfterASwitch(t *testing.T) {
	m := New(nil, Options{Now: fixedClock})
	req := runner.ApprovalRequest{ID: "call_1", ToolName: "bash", Summary: "rm -rf build"}
	m, _ = m.handleSessionLoaded(msgs.SessionLoadedMsg{SessionID: "s_b", Running: true, Switched: true,
		Approvals: []runner.ApprovalRequest{req}})
	m = m.handleApprovalEvents([]agent.Event{agent.Annotation{Kind: runner.AnnotationApprovalRequest, Data: req}})
	if len(m.dialogs) != 1 {
		t.Fatalf("%d questions open, want 1", len(m.dialogs))
	}
	// A sub-agent's call of the same id is another question, answered and
	// closed on its own.
	child := req
	child.SessionID = "s_child"
	m = m.handleApprovalEvents([]agent.Event{agent.Annotation{Kind: runner.AnnotationApprovalRequest, Data: child}})
	if len(m.dialogs) != 2 {
		t.Fatalf("%d questions open, want the sub-agent's too", len(m.dialogs))
	}
	m = m.handleApprovalEvents([]agent.Event{agent.Annotation{Kind: runner.AnnotationApprovalResolved,
		Data: runner.ApprovalResolved{ID: req.ID, SessionID: "s_child", Decision: "allow"}}})
	if len(m.dialogs) != 1 || m.dialogs[0].Tag() != approvalTag("", req.ID) {
		t.Fatalf("the sub-agent's answer closed the wrong question: %d open", len(m.dialogs))
	}
	m, _ = m.handleSessionLoaded(msgs.SessionLoadedMsg{SessionID: "s_c", Switched: true})
	if len(m.dialogs) != 0 {
		t.Fatalf("the question of the session left behind is still open")
	}
}
