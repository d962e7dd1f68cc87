package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/contextguard"
)

// overflowing is a provider with a context limit: a request over limit
// tokens (by the guard's own estimate) fails as providers say it, a summary
// request is answered with a summary, anything else with "ok". fail makes
// the first n main requests overflow whatever their size.
type overflowing struct {
	limit int
	mu    sync.Mutex
	fail  int
	sizes []int // the estimated size of every main request, in order
}

func (p *overflowing) stream(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
	out := agent.NewAssistantStream()
	tokens := contextguard.EstimateContext(llm)
	summary := strings.Contains(llm.SystemPrompt, "summarise conversations")
	p.mu.Lock()
	forced := !summary && p.fail > 0
	if forced {
		p.fail--
	}
	if !summary {
		p.sizes = append(p.sizes, tokens)
	}
	p.mu.Unlock()
	go func() {
		w := agent.NewStreamWriter(ctx, out, m, agenttest.Epoch)
		w.Start()
		switch {
		case forced || tokens > p.limit:
			msg := fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens.", p.limit, tokens)
			w.Fail(&agent.ProviderError{Kind: agent.ErrorHTTP, Status: 400, Type: "invalid_request_error", Code: "context_length_exceeded", Message: msg})
		case summary:
			w.TextDelta("## Goal\nKeep going (summary of the earlier talk).")
			w.Finish(agent.StopReasonStop)
		default:
			w.TextDelta("ok")
			w.Finish(agent.StopReasonStop)
		}
	}()
	return out
}

// history is n earlier exchanges of about size bytes each.
func history(n, size int) []agent.Message {
	var msgs []agent.Message
	for i := range n {
		msgs = append(msgs,
			agent.UserMessage(fmt.Sprintf("question %d: %s", i, strings.Repeat("words ", size/6)), agenttest.Epoch),
			agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.Text(fmt.Sprintf("answer %d: %s", i, strings.Repeat("reply ", size/6)))},
				StopReason: agent.StopReasonStop, Timestamp: agenttest.Epoch})
	}
	return msgs
}

func guardRuntime(t *testing.T, p *overflowing, window int, tools ...agent.Tool) (*Runtime, *[]agent.Annotation) {
	t.Helper()
	model := agent.Model{Provider: "p", ID: "m", API: "test", ContextWindow: window}
	rt, err := New(context.Background(), Options{
		Providers: []Provider{{Name: "p", Models: []agent.Model{model}, Stream: p.stream}},
		Model:     "p/m", Tools: tools, Now: agenttest.Clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var notes []agent.Annotation
	rt.Subscribe(func(ev agent.Event) {
		if a, ok := ev.(agent.Annotation); ok {
			mu.Lock()
			notes = append(notes, a)
			mu.Unlock()
		}
	})
	return rt, &notes
}

func kinds(notes []agent.Annotation, kind string) []agent.Annotation {
	var out []agent.Annotation
	for _, a := range notes {
		if a.Kind == kind {
			out = append(out, a)
		}
	}
	return out
}

// TestOverflowCompactsOnceAndCompletes: a provider whose window the session
// has outgrown (the model's own window unknown to steer) answers
// context_overflow; the run compacts once, completes, and the transcript
// holds the summary and the recent tail.
func TestOverflowCompactsOnceAndCompletes(t *testing.T) {
	p := &overflowing{limit: 30_000}
	rt, notes := guardRuntime(t, p, 0)
	if err := rt.agent.ReplaceMessages(history(20, 8_000)); err != nil {
		t.Fatal(err)
	}
	if err := rt.Prompt(context.Background(), "and now?"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	msgs := rt.State().Messages
	last := msgs[len(msgs)-1]
	if last.TextContent() != "ok" {
		for _, n := range *notes {
			t.Logf("%s %+v", n.Kind, n.Data)
		}
		t.Fatalf("the run did not complete: %+v", last)
	}
	starts := kinds(*notes, AnnotationCompactionStart)
	ends := kinds(*notes, AnnotationCompactionEnd)
	if len(starts) != 1 || len(ends) != 1 {
		t.Fatalf("%d compaction_start, %d compaction_end, want 1 each", len(starts), len(ends))
	}
	end := ends[0].Data.(CompactionEnd)
	if end.Reason != "overflow" || end.Result == nil || !end.WillRetry || end.TokensAfter >= end.TokensBefore {
		t.Fatalf("compaction_end %+v", end)
	}
	if !contextguard.IsSummary(msgs[0]) {
		t.Fatalf("the transcript does not open with the summary: %q", msgs[0].TextContent())
	}
	if prompt := msgs[len(msgs)-2]; prompt.TextContent() != "and now?" {
		t.Fatalf("the recent tail lost the prompt: %+v", prompt)
	}
	if len(msgs) >= 42 {
		t.Fatalf("%d messages after compaction", len(msgs))
	}
}

// withBigToolResult is history that ends in a read whose 100 kB result is
// in the recent tail: compaction keeps it, the overflow chain's cut is what
// shrinks it.
func withBigToolResult() []agent.Message {
	msgs := history(10, 4_000)
	return append(msgs,
		agent.UserMessage("read the log", agenttest.Epoch),
		agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.ToolCall("c1", "read", map[string]any{"path": "log"})},
			StopReason: agent.StopReasonToolUse, Timestamp: agenttest.Epoch},
		agent.Message{Role: agent.RoleToolResult, ToolCallID: "c1", ToolName: "read",
			Content: []agent.Content{agent.Text(strings.Repeat("log line of the build\n", 100_000/22))}, Timestamp: agenttest.Epoch},
	)
}

// TestOverflowChainInTheSeedsSteps: a provider that keeps overflowing gets
// the seed's steps (seed 002 §5, §12) and no more: compact and retry; still
// overflowing, cut the oversized tool results and retry; still overflowing,
// give up with context_overflow — one request per step, no extra plain retry.
func TestOverflowChainInTheSeedsSteps(t *testing.T) {
	cases := []struct {
		name        string
		session     []agent.Message
		fail        int
		requests    int // main requests
		compactions int
		replaced    bool   // the session's tool result was cut
		gaveUp      string // runGuard.gaveUp at the end; "" when it completed
	}{
		{"one overflow: compact, retry, answer", history(10, 4_000), 1, 2, 1, false, ""},
		{"overflowing after the compaction, nothing to cut: give up", history(10, 4_000), 2, 2, 1, false, "context_overflow"},
		{"an oversized result in the tail: compact, cut, give up", withBigToolResult(), 1 << 10, 3, 1, true, "context_overflow"},
		{"an oversized result in the tail: the cut is enough", withBigToolResult(), 2, 3, 1, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &overflowing{limit: 1 << 30, fail: c.fail}
			rt, notes := guardRuntime(t, p, 0)
			if err := rt.agent.ReplaceMessages(c.session); err != nil {
				t.Fatal(err)
			}
			if err := rt.Prompt(context.Background(), "again"); err != nil {
				t.Fatal(err)
			}
			waitIdle(t, rt)
			msgs := rt.State().Messages
			last := msgs[len(msgs)-1]
			if done := last.TextContent() == "ok"; done != (c.gaveUp == "") {
				t.Fatalf("completed %v, want %v: %+v", done, c.gaveUp == "", last)
			}
			if len(p.sizes) != c.requests {
				t.Fatalf("%d main requests, want %d", len(p.sizes), c.requests)
			}
			if n := len(kinds(*notes, AnnotationCompactionStart)); n != c.compactions {
				t.Fatalf("%d compactions, want %d", n, c.compactions)
			}
			if got := rt.keeper.run.gaveUp(); got != c.gaveUp {
				t.Fatalf("gave up with %q, want %q", got, c.gaveUp)
			}
			for _, m := range msgs {
				if cut := m.Role == agent.RoleToolResult && len(m.TextContent()) < 99_000; m.Role == agent.RoleToolResult && cut != c.replaced {
					t.Fatalf("the stored tool result is %d bytes; cut %v, want %v", len(m.TextContent()), cut, c.replaced)
				}
			}
		})
	}
}

// hugeTool prints 5 MB and then fails, as a build with a long log does.
type hugeTool struct{}

func (hugeTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{Name: "build", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (hugeTool) Execute(context.Context, string, map[string]any, agent.ToolUpdate) (agent.ToolResult, error) {
	var b strings.Builder
	for i := 0; b.Len() < 5<<20; i++ {
		fmt.Fprintf(&b, "compiling unit %d of the project\n", i)
	}
	b.WriteString("error: linking failed\nexit code 2\n")
	return agent.ToolResult{Content: []agent.Content{agent.Text(b.String())}, IsError: true}, nil
}

// TestHugeToolResultIsCutWithItsTail: 5 MB of tool output that ends in an
// error is stored cut to the persist maximum, head and tail, and the request
// sends it cut to the window's limit; the run completes.
func TestHugeToolResultIsCutWithItsTail(t *testing.T) {
	script := agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "build", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("the build failed").Stop(agent.StopReasonStop),
	)
	model := agent.Model{Provider: "p", ID: "m", API: "test", ContextWindow: 128_000}
	rt, err := New(context.Background(), Options{
		Providers: []Provider{{Name: "p", Models: []agent.Model{model}, Stream: script.Stream}},
		Model:     "p/m", Tools: []agent.Tool{hugeTool{}}, Now: agenttest.Clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Prompt(context.Background(), "build it"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	var stored agent.Message
	for _, m := range rt.State().Messages {
		if m.Role == agent.RoleToolResult {
			stored = m
		}
	}
	text := stored.TextContent()
	if len(text) > contextguard.PersistMaxChars+200 || !strings.HasPrefix(text, "compiling unit 0") || !strings.Contains(text, "exit code 2") {
		t.Fatalf("stored result: %d bytes, head %q, tail %q", len(text), text[:40], text[len(text)-60:])
	}
	reqs := script.Requests()
	for i, r := range reqs {
		t.Logf("request %d: %d messages, %d tokens", i, len(r.Messages), contextguard.EstimateContext(r))
	}
	sent := reqs[len(reqs)-1].Messages
	var sentResult string
	for _, m := range sent {
		if m.Role == agent.RoleToolResult {
			sentResult = m.TextContent()
		}
	}
	limit := contextguard.ToolResultLimit(model.ContextWindow)
	if len(sentResult) > limit+200 || !strings.Contains(sentResult, "exit code 2") {
		t.Fatalf("sent result: %d bytes (limit %d), tail %q", len(sentResult), limit, sentResult[max(0, len(sentResult)-80):])
	}
	if last := rt.State().Messages[len(rt.State().Messages)-1]; last.TextContent() != "the build failed" {
		t.Fatalf("last message %+v", last)
	}
}
