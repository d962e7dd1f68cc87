package chat

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/theme"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

func newChat(width, height int) Model {
	m := New(Deps{Styles: theme.NewStyles(theme.Plain()).Chat, Keys: DefaultKeyMap(), Profile: termenv.Ascii})
	m.SetSize(width, height)
	return m
}

func events(evs ...agent.Event) msgs.RunEventMsg { return msgs.RunEventMsg{RunID: 1, Events: evs} }

func user(text string) agent.Message {
	return agent.Message{Role: agent.RoleUser, Content: []agent.Content{agent.Text(text)}}
}

func reply(text string) agent.Message {
	return agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.Text(text)}, StopReason: agent.StopReasonStop}
}

// countingItem counts its renders.
type countingItem struct {
	text    string
	renders *int
}

func (c *countingItem) render(rc *renderCtx) []string {
	*c.renders++
	return []string{c.text}
}

func TestOnlyVisibleItemsRenderOncePerWidth(t *testing.T) {
	m := newChat(80, 10)
	renders := 0
	for i := 0; i < 1000; i++ {
		m.add(&countingItem{text: fmt.Sprintf("item %d", i), renders: &renders})
	}
	m.compose()
	if renders > 10 {
		t.Fatalf("%d items rendered for a 10-line view", renders)
	}
	before := renders
	m.compose()
	if renders != before {
		t.Fatalf("a second frame re-rendered %d items", renders-before)
	}
	m.SetSize(70, 10)
	if renders-before > 10 {
		t.Fatalf("a resize re-rendered %d items, not only the visible ones", renders-before)
	}
	if !strings.Contains(m.View(), "item 999") {
		t.Fatalf("the view does not end with the last item:\n%s", m.View())
	}
}

func TestHistoryLoads(t *testing.T) {
	m := newChat(80, 20)
	call := agent.ToolCall("c1", "bash", map[string]any{"command": "false"})
	m, _ = m.Update(msgs.SessionLoadedMsg{Messages: []agent.Message{
		user("run false"),
		{Role: agent.RoleAssistant, Content: []agent.Content{agent.Text("Running it."), call}, StopReason: agent.StopReasonToolUse},
		{Role: agent.RoleToolResult, ToolCallID: "c1", ToolName: "bash", IsError: true,
			Content: []agent.Content{agent.Text("[exit code 1]")}, Details: agent.CommandDetails{ExitCode: 1, DurationMs: 12}},
		{Role: agent.RoleAssistant, StopReason: agent.StopReasonAborted, ErrorMessage: agent.AbortedMessage},
		{Role: agent.RoleAssistant, StopReason: agent.StopReasonError, ErrorMessage: "rate limited: retry in 20s"},
		{Role: agent.RoleAssistant, StopReason: agent.StopReasonAborted, ErrorMessage: "run timed out after 1s"},
	}})
	v := m.View()
	for _, want := range []string{"❯ run false", "Running it.", "✗ bash false · exit 1 · 12ms", "│ [exit code 1]",
		"⏹ interrupted\n", "✗ error: rate limited: retry in 20s", "⏹ interrupted: run timed out after 1s"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, agent.AbortedMessage) {
		t.Errorf("the user's own abort is worded as a reason:\n%s", v)
	}
}

// TestCompactedHistoryLoads: a session loads with what was compacted away
// above a marker, then what the model sees.
func TestCompactedHistoryLoads(t *testing.T) {
	m := newChat(80, 30)
	m, _ = m.Update(msgs.SessionLoadedMsg{
		Earlier: []runner.HistoryEntry{
			{Kind: runner.HistoryMessage, Message: user("the very first prompt")},
			{Kind: runner.HistoryMessage, Message: reply("its answer")},
			{Kind: runner.HistoryContext, Context: []agent.Message{user("a summary")}},
		},
		Messages: []agent.Message{user("a summary"), user("after it")},
	})
	v := m.View()
	first, marker, after := strings.Index(v, "the very first prompt"), strings.Index(v, compactedMarker), strings.Index(v, "after it")
	if first < 0 || marker < first || after < marker || !strings.Contains(v, "its answer") {
		t.Fatalf("the compacted history is not above its marker and the rest below:\n%s", v)
	}
}

func TestSanitisesModelAndToolText(t *testing.T) {
	m := newChat(80, 20)
	m, _ = m.Update(events(
		agent.MessageStart{Message: user("hi\x1b]0;title\x07")},
		agent.MessageStart{Message: reply("clip\x1b]52;c;ZXZpbA==\x07board \x1b[2J")},
		agent.MessageEnd{Message: reply("clip\x1b]52;c;ZXZpbA==\x07board \x1b[2J")},
		agent.ToolExecutionStart{ToolCallID: "t", ToolName: "bash", Args: map[string]any{"command": "echo \x1b[31mx"}},
		agent.ToolExecutionUpdate{ToolCallID: "t", ToolName: "bash", Partial: agent.TextResult("out\x1b[H\u009b2J\u202eevil")},
	))
	v := m.View()
	if strings.ContainsAny(v, "\x1b\u009b\u202e\a") {
		t.Fatalf("control characters reached the view: %q", v)
	}
	for _, want := range []string{"❯ hi", "clipboard", "│ outevil", "bash echo x"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
}

func TestThinkingIsDimmedAndCollapsible(t *testing.T) {
	m := newChat(80, 20)
	thinking := agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{{Type: agent.ContentThinking, Thinking: "Let me consider the options carefully."}}}
	m, _ = m.Update(events(agent.MessageStart{Message: thinking}, agent.MessageUpdate{Message: thinking,
		Event: agent.AssistantEvent{Type: agent.EventThinkingDelta}}))
	if !strings.Contains(m.View(), "consider the options") {
		t.Fatalf("streaming thinking is hidden:\n%s", m.View())
	}
	done := thinking
	done.Content = append(done.Content, agent.Text("The answer."))
	done.StopReason = agent.StopReasonStop
	m, _ = m.Update(events(agent.MessageEnd{Message: done}))
	if v := m.View(); strings.Contains(v, "consider the options") || !strings.Contains(v, "∴ thought · 6 words") {
		t.Fatalf("finished thinking is not collapsed:\n%s", v)
	}
	m, _ = m.Update(msgs.ToggleThinkingMsg{})
	if !strings.Contains(m.View(), "consider the options") {
		t.Fatalf("ctrl+t did not expand thinking:\n%s", m.View())
	}
}

func TestSelectAndToggleABlock(t *testing.T) {
	m := newChat(80, 20)
	m, _ = m.Update(events(
		agent.ToolExecutionStart{ToolCallID: "a", ToolName: "bash", Args: map[string]any{"command": "ls"}},
		agent.ToolExecutionEnd{ToolCallID: "a", ToolName: "bash", Result: agent.TextResult("one\ntwo\nthree")},
		agent.ToolExecutionStart{ToolCallID: "b", ToolName: "bash", Args: map[string]any{"command": "pwd"}},
		agent.ToolExecutionEnd{ToolCallID: "b", ToolName: "bash", Result: agent.TextResult("/tmp\nx")},
	))
	m.Focus()
	if !strings.Contains(m.View(), "▌ ✓ bash pwd") {
		t.Fatalf("focus did not select the newest block:\n%s", m.View())
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyUp})
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if v := m.View(); !strings.Contains(v, "│ three") || strings.Contains(v, "│ /tmp") {
		t.Fatalf("enter did not expand the selected block only:\n%s", v)
	}
	m.Blur()
	if strings.Contains(m.View(), "▌") {
		t.Fatal("the selection mark stays without focus")
	}
}

func TestToolCallsOfAFailedResponseAreNotRun(t *testing.T) {
	m := newChat(80, 20)
	partial := agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{
		agent.ToolCall("c1", "bash", map[string]any{"command": "rm -rf bu"}),
	}}
	failed := agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonLength}
	m, _ = m.Update(events(
		agent.MessageStart{Message: partial},
		agent.MessageUpdate{Message: partial, Event: agent.AssistantEvent{Type: agent.EventToolCallStart}},
	))
	if !strings.Contains(m.View(), "○ bash") {
		t.Fatalf("a starting call shows no pending block:\n%s", m.View())
	}
	m, _ = m.Update(events(agent.MessageEnd{Message: failed}, agent.AgentEnd{}))
	if v := m.View(); !strings.Contains(v, "– bash rm -rf bu · not run") || !strings.Contains(v, "cut off") {
		t.Fatalf("the dropped call is not marked:\n%s", v)
	}
}

func TestFailoverIsANoticeLine(t *testing.T) {
	m := newChat(80, 20)
	m, _ = m.Update(events(
		agent.Annotation{Kind: runner.AnnotationAttemptStart, Data: runner.AttemptInfo{Profile: "p:a"}},
		agent.Annotation{Kind: runner.AnnotationFailover, Data: runner.AttemptInfo{Reason: "rate_limit", Decision: "rotate_profile", From: "p:a", To: "p:b"}},
	))
	if v := m.View(); !strings.Contains(v, "↻ rate_limit on profile p:a: trying profile p:b") {
		t.Fatalf("no failover line:\n%s", v)
	}
}

// TestLoadingARunningSession: a session switched to while its tool runs
// shows the call running, not "not run", and its end completes it.
func TestLoadingARunningSession(t *testing.T) {
	for _, running := range []bool{true, false} {
		m := newChat(80, 20)
		call := agent.ToolCall("c1", "bash", map[string]any{"command": "sleep 5"})
		m, _ = m.Update(msgs.SessionLoadedMsg{Running: running, Messages: []agent.Message{
			user("run sleep 5"),
			{Role: agent.RoleAssistant, Content: []agent.Content{call}, StopReason: agent.StopReasonToolUse},
		}})
		if got := strings.Contains(m.View(), "not run"); got == running {
			t.Errorf("running %v: the call shows as not run = %v:\n%s", running, got, m.View())
		}
		if !running {
			continue
		}
		m, _ = m.Update(events(agent.ToolExecutionEnd{ToolCallID: "c1", ToolName: "bash",
			Result: agent.ToolResult{Content: []agent.Content{agent.Text("slept")}, Details: agent.CommandDetails{DurationMs: 5000}}}))
		if v := m.View(); !strings.Contains(v, "✓ bash sleep 5 · exit 0 · 5.0s") || strings.Contains(v, "not run") {
			t.Errorf("the call's end did not complete it:\n%s", v)
		}
	}
}

// TestSubagentProgressUnderItsCall: a sub-agent's progress shows under the
// task call that started it, also what it reported before the call ended.
func TestSubagentProgressUnderItsCall(t *testing.T) {
	m := newChat(100, 20)
	progress := func(state, doing string) agent.Event {
		return agent.Annotation{Kind: runner.AnnotationSubagentProgress,
			Data: runner.SubagentProgress{SessionID: "s_child", State: state, Doing: doing}}
	}
	m, _ = m.Update(events(
		agent.ToolExecutionStart{ToolCallID: "c1", ToolName: runner.TaskToolName, Args: map[string]any{"task": "count"}},
		progress(runner.SubagentWorking, "started"),
		agent.ToolExecutionEnd{ToolCallID: "c1", ToolName: runner.TaskToolName,
			Result: agent.ToolResult{Content: []agent.Content{agent.Text("started")}, Details: runner.TaskDetails{SessionID: "s_child"}}},
	))
	if v := m.View(); !strings.Contains(v, "└ sub-agent s_child: working · started") {
		t.Fatalf("the progress reported before the call ended is missing:\n%s", v)
	}
	m, _ = m.Update(events(progress(runner.SubagentAnswered, "one two three")))
	if v := m.View(); !strings.Contains(v, "└ sub-agent s_child: answered · one two three") {
		t.Fatalf("the answer is missing:\n%s", v)
	}
}

// TestSubagentProgressSurvivesASwitch: a session switched to shows where
// its sub-agents stand under their task calls.
func TestSubagentProgressSurvivesASwitch(t *testing.T) {
	m := newChat(100, 20)
	call := agent.ToolCall("c1", runner.TaskToolName, map[string]any{"task": "count"})
	m, _ = m.Update(msgs.SessionLoadedMsg{Running: true, Switched: true, Messages: []agent.Message{
		user("delegate count"),
		{Role: agent.RoleAssistant, Content: []agent.Content{call}, StopReason: agent.StopReasonToolUse},
		{Role: agent.RoleToolResult, ToolCallID: "c1", ToolName: runner.TaskToolName,
			Content: []agent.Content{agent.Text("started")}, Details: runner.TaskDetails{SessionID: "s_child"}},
	}, Subagents: []runner.SubagentProgress{{SessionID: "s_child", State: runner.SubagentWorking, Doing: "running bash", Tools: 2}}})
	if v := m.View(); !strings.Contains(v, "└ sub-agent s_child: working · 2 tool calls · running bash") {
		t.Fatalf("the sub-agent's progress is missing after the switch:\n%s", v)
	}
}

// TestOneQuarantineIsOneNotice: calls that failed together (the engine told
// of a message while asked for a request's context) are one quarantine, so
// one ⚠ line, which quotes the engine's stderr.
func TestOneQuarantineIsOneNotice(t *testing.T) {
	m := newChat(200, 20)
	q := runner.QuarantineInfo{Engine: "crashy", Method: "ingest", Reason: "crash", Stderr: "no such file", Count: 1}
	again := q
	again.Method, again.Count = "assemble", 2
	m, _ = m.Update(events(agent.Annotation{Kind: runner.AnnotationQuarantine, Data: q},
		agent.Annotation{Kind: runner.AnnotationQuarantine, Data: again}))
	v := m.View()
	if n := strings.Count(v, "⚠ context engine crashy quarantined"); n != 1 || !strings.Contains(v, "its stderr ended: no such file") {
		t.Fatalf("%d quarantine lines, want one quoting the stderr:\n%s", n, v)
	}
}
