package runner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/skills"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/contextguard"
)

// namedTool is a tool of a given name and description whose result is
// output.
type namedTool struct{ name, description, output string }

func (n namedTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{Name: n.name, Description: n.description, Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}
}

func (n namedTool) Execute(context.Context, string, map[string]any, agent.ToolUpdate) (agent.ToolResult, error) {
	return agent.ToolResult{Content: []agent.Content{agent.Text(n.output)}}, nil
}

// breakdownRuntime is a runtime with a base prompt, a context file, a
// skill, a SessionStart hook's context, two tools of its own and two of
// an MCP server's, whose script reads a large file, answers and then
// answers again.
func breakdownRuntime(t *testing.T) (*Runtime, *agenttest.Script) {
	t.Helper()
	ws, home := t.TempDir(), t.TempDir()
	write := func(path, text string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(ws, "AGENTS.md"), "Run the tests before you commit.\n")
	write(filepath.Join(home, ".claude/skills/pdf/SKILL.md"), "---\nname: pdf\ndescription: Read PDF files.\n---\nRun pdftotext.\n")
	// 29 KB: under the tool-result limit of agenttest.Model's window, so
	// that the guard sends it whole.
	big := strings.Repeat("src/main.go:12: a line of the big file\n", 750)
	script := agenttest.NewScript(
		agenttest.Reply().ToolCall("call_read", "read", `{"path":"big.txt"}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("read it").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("again").Stop(agent.StopReasonStop))
	rt := newRuntime(t, nil, script, Options{Workspace: ws, SystemPrompt: "You are steer.",
		UserDirs: skills.UserDirs{Home: home}, ContextFiles: &tools.ContextSources{Home: home},
		Tools: []agent.Tool{namedTool{"read", "Read a file.", big}, namedTool{"bash", "Run a command.", ""},
			namedTool{"mcp__git__log", "Show the log.", ""}, namedTool{"mcp__git__diff", "Show a diff.", ""}}})
	rt.memory.setSessionContext("the branch is main")
	return rt, script
}

// TestContextBreakdownAddsUpToTheNextRequest: after a run that read a big
// file, the breakdown's parts (the prompt's pieces, a line per tool and
// one for the MCP server, the turn) sum to its total, which is what the
// guard measures of the next request exactly — the request the model then
// gets, less the prompt that started it; the largest tool result is named,
// within its turn and not counted again.
func TestContextBreakdownAddsUpToTheNextRequest(t *testing.T) {
	rt, script := breakdownRuntime(t)
	if err := rt.Prompt(context.Background(), "read big.txt"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	b := rt.ContextBreakdown()

	sum, kinds := 0, map[ContextPartKind]int{}
	var labels []string
	for _, p := range b.Parts {
		kinds[p.Kind]++
		labels = append(labels, p.Label)
		if !p.Within {
			sum += p.Tokens
		}
		if want := float64(p.Tokens) / float64(agenttest.Model.ContextWindow); p.Share != want {
			t.Errorf("%s: share %v, want %v", p.Label, p.Share, want)
		}
	}
	if sum != b.Total {
		t.Errorf("the parts sum to %d, the total is %d", sum, b.Total)
	}
	for kind, want := range map[ContextPartKind]int{PartSystem: 1, PartSkills: 1, PartContextFiles: 1, PartSessionHook: 1,
		PartTool: 3 /* read, bash and the runtime's task */, PartMCPServer: 1, PartMessages: 1, PartToolResult: 1} {
		if kinds[kind] != want {
			t.Errorf("%d parts of kind %s, want %d: %q", kinds[kind], kind, want, labels)
		}
	}
	for _, want := range []string{"mcp server git (2 tools)", "turn 1 (4 messages)", "tool result read call_read (turn 1)", "context files (1 file)"} {
		if !strings.Contains(strings.Join(labels, "|"), want) {
			t.Errorf("no part %q in %q", want, labels)
		}
	}
	if m := rt.ContextMeter(); m.Tokens != b.Total {
		t.Errorf("the status meter says %d tokens, the breakdown %d", m.Tokens, b.Total)
	}
	if b.Window != agenttest.Model.ContextWindow || b.Route != MeterFits || b.Budget <= 0 {
		t.Errorf("window %d, budget %d, route %s", b.Window, b.Budget, b.Route)
	}

	if err := rt.Prompt(context.Background(), "again"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	reqs := script.Requests()
	sent := reqs[len(reqs)-1]
	var pieces strings.Builder
	for _, p := range rt.promptPieces(rt.opts.SystemPrompt) {
		pieces.WriteString(p.text)
	}
	if pieces.String() != sent.SystemPrompt {
		t.Errorf("the pieces join to\n%q\nthe request sent\n%q", pieces.String(), sent.SystemPrompt)
	}
	prompt := sent.Messages[len(sent.Messages)-1]
	if want := contextguard.EstimateContext(sent) - contextguard.EstimateMessage(prompt); b.Total != want {
		t.Fatalf("the breakdown's total is %d; the guard measures %d of the request sent next, without its prompt", b.Total, want)
	}
}

// TestContextBreakdownGroupsTurns: a long session's turns share lines, at
// most maxMessageGroups of them, which cover every message once.
func TestContextBreakdownGroupsTurns(t *testing.T) {
	for _, tc := range []struct {
		turns int
		want  []string
	}{
		{1, []string{"turn 1 (2 messages)"}},
		{3, []string{"turn 1 (2 messages)", "turn 2 (2 messages)", "turn 3 (2 messages)"}},
		{20, []string{"turns 1–3 (6 messages)", "turns 4–6 (6 messages)", "turns 7–9 (6 messages)", "turns 10–12 (6 messages)",
			"turns 13–15 (6 messages)", "turns 16–18 (6 messages)", "turns 19–20 (4 messages)"}},
	} {
		rt := newRuntime(t, nil, agenttest.NewScript(), Options{})
		var msgs []agent.Message
		for i := 0; i < tc.turns; i++ {
			msgs = append(msgs, agent.UserMessage("question", agenttest.Epoch),
				agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.Text("answer")}, Timestamp: agenttest.Epoch})
		}
		parts := rt.messageParts(msgs)
		var got []string
		total := 0
		for _, p := range parts {
			got = append(got, p.Label)
			total += p.Tokens
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%d turns: %q, want %q", tc.turns, got, tc.want)
		}
		if want := contextguard.NewEstimator().Messages(msgs); total != want {
			t.Errorf("%d turns: the groups hold %d tokens, the messages %d", tc.turns, total, want)
		}
	}
}
