package agent_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// loopFailureTail is the trace of a run on "hi" whose loop failed before the
// provider gave a message: the whole lifecycle, closed by an error marker.
var loopFailureTail = []string{
	"agent_start", "turn_start",
	"message_start user hi", "message_end user hi",
	"message_start assistant error", "message_end assistant error",
	"turn_end error results=0",
	"agent_end messages=2",
}

func TestEventOrder(t *testing.T) {
	tests := []struct {
		name   string
		script []*agenttest.Response
		want   []string
	}{
		{
			name:   "plain turn",
			script: []*agenttest.Response{agenttest.Reply().Text("Hel").Text("lo").Stop(agent.StopReasonStop)},
			want: []string{
				"agent_start", "turn_start",
				"message_start user hi", "message_end user hi",
				"message_start assistant stop",
				"message_update text_start", "message_update text_delta", "message_update text_delta", "message_update text_end",
				"message_end assistant stop",
				"turn_end stop results=0",
				"agent_end messages=2",
			},
		},
		{
			name: "tool turn",
			script: []*agenttest.Response{
				agenttest.Reply().ToolCall("c1", "echo", `{"text":"pong"}`).Stop(agent.StopReasonToolUse),
				agenttest.Reply().Text("done").Stop(agent.StopReasonStop),
			},
			want: []string{
				"agent_start", "turn_start",
				"message_start user hi", "message_end user hi",
				"message_start assistant stop",
				"message_update toolcall_start", "message_update toolcall_delta", "message_update toolcall_delta", "message_update toolcall_end",
				"message_end assistant toolUse",
				"tool_execution_start echo", "tool_execution_end echo error=false",
				"message_start toolResult echo error=false", "message_end toolResult echo error=false",
				"turn_end toolUse results=1",
				"turn_start",
				"message_start assistant stop",
				"message_update text_start", "message_update text_delta", "message_update text_end",
				"message_end assistant stop",
				"turn_end stop results=0",
				"agent_end messages=4",
			},
		},
		{
			name:   "stream fails mid-way",
			script: []*agenttest.Response{agenttest.Reply().Text("par").Fail(&agent.ProviderError{Kind: agent.ErrorStream, Type: "overloaded_error", Message: "Overloaded"})},
			want: []string{
				"agent_start", "turn_start",
				"message_start user hi", "message_end user hi",
				"message_start assistant stop",
				"message_update text_start", "message_update text_delta", "message_update text_end",
				"message_end assistant error",
				"turn_end error results=0",
				"agent_end messages=2",
			},
		},
		{
			name:   "loop failure emits the whole tail",
			script: []*agenttest.Response{agenttest.Reply().Panic()},
			want:   loopFailureTail,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, agenttest.NewScript(tt.script...), echoTool("echo"))
			if err := f.agent.Prompt("hi"); err != nil {
				t.Fatal(err)
			}
			f.wait(t)
			equalTraces(t, f.rec.Traces(true), tt.want)
		})
	}
}

func TestFailureMessages(t *testing.T) {
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().Text("par").Fail(&agent.ProviderError{Kind: agent.ErrorStream, Status: 200, Type: "overloaded_error", Message: "Overloaded"}),
	))
	if err := f.agent.Prompt("hi"); err != nil {
		t.Fatal(err)
	}
	f.wait(t)
	msgs := f.agent.State().Messages
	last := msgs[len(msgs)-1]
	if last.StopReason != agent.StopReasonError || last.Error == nil || last.Error.Type != "overloaded_error" {
		t.Fatalf("last message = %+v, want an error with the provider's type", last)
	}
	if last.TextContent() != "par" {
		t.Errorf("partial text = %q, want the text received before the failure", last.TextContent())
	}
	if last.ErrorMessage == "" {
		t.Error("errorMessage is empty")
	}
}

func TestLengthCutDropsHalfToolCall(t *testing.T) {
	ran := false
	tool := funcTool{name: "bash", run: func(context.Context, map[string]any, agent.ToolUpdate) (agent.ToolResult, error) {
		ran = true
		return agent.TextResult("ran"), nil
	}}
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().Text("Let me run").ToolCall("c1", "bash", `{"command": "rm -`).Stop(agent.StopReasonLength),
	), tool)
	if err := f.agent.Prompt("hi"); err != nil {
		t.Fatal(err)
	}
	f.wait(t)
	if ran {
		t.Error("a half tool call was executed")
	}
	msgs := f.agent.State().Messages
	last := msgs[len(msgs)-1]
	if last.StopReason != agent.StopReasonLength || len(last.ToolCalls()) != 0 {
		t.Fatalf("stored message = %+v, want length without tool calls", last)
	}
	if last.TextContent() != "Let me run" {
		t.Errorf("text = %q", last.TextContent())
	}
}

func TestInvalidToolArguments(t *testing.T) {
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "echo", `{"txt":"typo"}`).ToolCall("c2", "nope", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("sorry").Stop(agent.StopReasonStop),
	), echoTool("echo"))
	if err := f.agent.Prompt("hi"); err != nil {
		t.Fatal(err)
	}
	f.wait(t)
	msgs := f.agent.State().Messages
	results := msgs[2:4]
	for i, wantName := range []string{"echo", "nope"} {
		r := results[i]
		if r.Role != agent.RoleToolResult || r.ToolName != wantName || !r.IsError {
			t.Fatalf("result %d = %+v, want an error result for %s", i, r, wantName)
		}
	}
	if got := results[0].TextContent(); got == "" {
		t.Error("invalid-argument result has no explanation")
	}
	if last := msgs[len(msgs)-1]; last.TextContent() != "sorry" {
		t.Errorf("the loop did not continue after invalid arguments: %+v", last)
	}
	// The model saw both error results on its second request.
	reqs := f.script.Requests()
	if n := len(reqs[1].Messages); n != 4 {
		t.Errorf("second request had %d messages, want 4", n)
	}
}

func TestParallelToolsKeepRequestOrder(t *testing.T) {
	releaseSlow := make(chan struct{})
	slow := funcTool{name: "slow", run: func(ctx context.Context, _ map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
		<-releaseSlow
		return agent.TextResult("slow done"), nil
	}}
	fastDone := make(chan struct{})
	fast := funcTool{name: "fast", run: func(context.Context, map[string]any, agent.ToolUpdate) (agent.ToolResult, error) {
		return agent.TextResult("fast done"), nil
	}}
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "slow", `{}`).ToolCall("c2", "fast", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("ok").Stop(agent.StopReasonStop),
	), slow, fast)
	f.agent.Subscribe(func(ev agent.Event) {
		if e, ok := ev.(agent.ToolExecutionEnd); ok && e.ToolName == "fast" {
			close(fastDone)
		}
	})
	if err := f.agent.Prompt("hi"); err != nil {
		t.Fatal(err)
	}
	within(t, fastDone, "the fast tool to finish while the slow one runs")
	close(releaseSlow)
	f.wait(t)
	want := []string{
		"tool_execution_start slow", "tool_execution_start fast",
		"tool_execution_end fast error=false", "tool_execution_end slow error=false",
		"message_start toolResult slow error=false", "message_end toolResult slow error=false",
		"message_start toolResult fast error=false", "message_end toolResult fast error=false",
	}
	var got []string
	for _, tr := range f.rec.Traces(false) {
		if len(tr) > 5 && (tr[:5] == "tool_" || strings.Contains(tr, "toolResult")) {
			got = append(got, tr)
		}
	}
	equalTraces(t, got, want)
	msgs := f.agent.State().Messages
	if msgs[2].ToolCallID != "c1" || msgs[3].ToolCallID != "c2" {
		t.Errorf("stored results in order %s, %s; want c1, c2", msgs[2].ToolCallID, msgs[3].ToolCallID)
	}
}

func TestToolPanicBecomesErrorResult(t *testing.T) {
	boom := funcTool{name: "boom", run: func(context.Context, map[string]any, agent.ToolUpdate) (agent.ToolResult, error) {
		panic("kaboom")
	}}
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "boom", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("recovered").Stop(agent.StopReasonStop),
	), boom)
	if err := f.agent.Prompt("hi"); err != nil {
		t.Fatal(err)
	}
	f.wait(t)
	r := f.agent.State().Messages[2]
	if !r.IsError || !strings.Contains(r.TextContent(), "kaboom") {
		t.Fatalf("result = %+v, want an error result naming the panic", r)
	}
}

func TestToolUpdatesAreEmitted(t *testing.T) {
	tool := funcTool{name: "bash", run: func(_ context.Context, _ map[string]any, update agent.ToolUpdate) (agent.ToolResult, error) {
		update(agent.TextResult("line 1\n"))
		update(agent.TextResult("line 1\nline 2\n"))
		return agent.TextResult("line 1\nline 2\n"), nil
	}}
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "bash", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("ok").Stop(agent.StopReasonStop),
	), tool)
	if err := f.agent.Prompt("hi"); err != nil {
		t.Fatal(err)
	}
	f.wait(t)
	var partials []string
	for _, ev := range f.rec.Events() {
		if u, ok := ev.(agent.ToolExecutionUpdate); ok {
			partials = append(partials, u.Partial.Content[0].Text)
		}
	}
	equalTraces(t, partials, []string{"line 1\n", "line 1\nline 2\n"})
}

func TestContinue(t *testing.T) {
	f := newFixture(t, agenttest.NewScript(agenttest.Reply().Text("again").Stop(agent.StopReasonStop)))
	if err := f.agent.Continue(); err != agent.ErrCannotContinue {
		t.Fatalf("Continue on an empty transcript = %v, want ErrCannotContinue", err)
	}
	if err := f.agent.ReplaceMessages([]agent.Message{agent.UserMessage("hi", agenttest.Epoch)}); err != nil {
		t.Fatal(err)
	}
	if err := f.agent.Continue(); err != nil {
		t.Fatal(err)
	}
	f.wait(t)
	msgs := f.agent.State().Messages
	if len(msgs) != 2 || msgs[1].TextContent() != "again" {
		t.Fatalf("messages = %+v", msgs)
	}
	if err := f.agent.Continue(); err != agent.ErrCannotContinue {
		t.Fatalf("Continue after an assistant message = %v, want ErrCannotContinue", err)
	}
}

func TestPromptWhileRunningIsBusy(t *testing.T) {
	release := make(chan struct{})
	f := newFixture(t, agenttest.NewScript(agenttest.Reply().Wait(release).Text("ok").Stop(agent.StopReasonStop)))
	if err := f.agent.Prompt("one"); err != nil {
		t.Fatal(err)
	}
	if err := f.agent.Prompt("two"); err != agent.ErrBusy {
		t.Fatalf("second Prompt = %v, want ErrBusy", err)
	}
	close(release)
	f.wait(t)
}

func TestToolAnnotationsComeInOrder(t *testing.T) {
	var outside bool
	tool := funcTool{name: "write", run: func(ctx context.Context, _ map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
		if !agent.ToolAnnotate(ctx, agent.Annotation{Kind: "tool_approval_request", Data: map[string]any{"n": 1}}) {
			return agent.ErrorResult("not emitted"), nil
		}
		return agent.TextResult("done"), nil
	}}
	outside = agent.ToolAnnotate(context.Background(), agent.Annotation{Kind: "x"})
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "write", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("ok").Stop(agent.StopReasonStop),
	), tool)
	if err := f.agent.Prompt("hi"); err != nil {
		t.Fatal(err)
	}
	f.wait(t)
	if outside {
		t.Fatal("ToolAnnotate outside a tool reported true")
	}
	var order []string
	for _, ev := range f.rec.Events() {
		switch e := ev.(type) {
		case agent.ToolExecutionStart, agent.ToolExecutionEnd:
			order = append(order, ev.Type())
		case agent.Annotation:
			order = append(order, e.Kind)
		}
	}
	equalTraces(t, order, []string{"tool_execution_start", "tool_approval_request", "tool_execution_end"})
}

func TestStreamCanReplaceTheContext(t *testing.T) {
	summary := agent.UserMessage("summary of what came before", agenttest.Epoch)
	var seen [][]agent.Message
	calls := 0
	stream := func(ctx context.Context, m agent.Model, llm agent.LLMContext, opts agent.StreamOptions) *agent.AssistantStream {
		seen = append(seen, llm.Messages)
		calls++
		out := agent.NewAssistantStream()
		go func() {
			if calls == 1 {
				out.Push(ctx, agent.ReplaceContext([]agent.Message{summary, llm.Messages[len(llm.Messages)-1]}))
			}
			msg := agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.Text("ok")}, StopReason: agent.StopReasonStop}
			out.Push(ctx, agent.AssistantEvent{Type: agent.EventStart, Partial: msg})
			out.Push(ctx, agent.AssistantEvent{Type: agent.EventDone, Reason: agent.StopReasonStop, Partial: msg})
			out.End(msg)
		}()
		return out
	}
	a := agent.New(agent.Config{Model: agenttest.Model, Stream: stream, Now: agenttest.Clock,
		Messages: []agent.Message{agent.UserMessage("old question", agenttest.Epoch), agent.UserMessage("old answer", agenttest.Epoch)}})
	rec := &agenttest.Recorder{}
	a.Subscribe(rec.Record)
	if err := a.Prompt("new question"); err != nil {
		t.Fatal(err)
	}
	if err := a.WaitForIdle(context.Background()); err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range a.State().Messages {
		texts = append(texts, m.TextContent())
	}
	equalTraces(t, texts, []string{"summary of what came before", "new question", "ok"})
	var replaced int
	for _, ev := range rec.Events() {
		if r, ok := ev.(agent.ContextReplaced); ok {
			replaced++
			if len(r.Messages) != 2 {
				t.Fatalf("context_replaced carries %d messages, want 2", len(r.Messages))
			}
		}
	}
	if replaced != 1 {
		t.Fatalf("%d context_replaced events, want 1", replaced)
	}
}

func TestReplaceMessagesAndAnnounceBetweenRuns(t *testing.T) {
	f := newFixture(t, agenttest.NewScript())
	if err := f.agent.Announce(agent.Annotation{Kind: "compaction_start"}); err != nil {
		t.Fatal(err)
	}
	if err := f.agent.ReplaceMessages([]agent.Message{agent.UserMessage("summary", agenttest.Epoch)}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range f.rec.Events() {
		got = append(got, ev.Type())
	}
	equalTraces(t, got, []string{"compaction_start", "context_replaced"})
	if msgs := f.agent.State().Messages; len(msgs) != 1 || msgs[0].TextContent() != "summary" {
		t.Fatalf("messages = %+v", msgs)
	}
}

func TestATerminatingToolResultEndsTheRun(t *testing.T) {
	tool := funcTool{name: "write", run: func(context.Context, map[string]any, agent.ToolUpdate) (agent.ToolResult, error) {
		r := agent.ErrorResult("denied by the user")
		r.Terminate = true
		return r, nil
	}}
	f := newFixture(t, agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "write", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("never asked").Stop(agent.StopReasonStop),
	), tool)
	if err := f.agent.Prompt("hi"); err != nil {
		t.Fatal(err)
	}
	f.wait(t)
	msgs := f.agent.State().Messages
	if len(msgs) != 3 || msgs[2].Role != agent.RoleToolResult {
		t.Fatalf("the run went on after a terminating result: %d messages, last %+v", len(msgs), msgs[len(msgs)-1])
	}
}

// resultsLater is a Pending whose one message arrives when the run would
// end, as a sub-agent's result does.
type resultsLater struct {
	mu    sync.Mutex
	ready []agent.Message
	later []agent.Message
}

func (p *resultsLater) Poll() []agent.Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.ready
	p.ready = nil
	return out
}

func (p *resultsLater) Unpoll(msgs []agent.Message) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ready = append(append([]agent.Message(nil), msgs...), p.ready...)
}

func (p *resultsLater) Wait(context.Context) []agent.Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.later
	p.later = nil
	return out
}

func TestPendingInputKeepsTheRunGoing(t *testing.T) {
	script := agenttest.NewScript(
		agenttest.Reply().Text("started the child").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("the child said 3").Stop(agent.StopReasonStop),
	)
	p := &resultsLater{later: []agent.Message{agent.UserMessage("child result: 1 2 3", agenttest.Epoch)}}
	a := agent.New(agent.Config{Model: agenttest.Model, Stream: script.Stream, Now: agenttest.Clock, Pending: p})
	rec := &agenttest.Recorder{}
	a.Subscribe(rec.Record)
	if err := a.Prompt("delegate counting"); err != nil {
		t.Fatal(err)
	}
	if err := a.WaitForIdle(context.Background()); err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range a.State().Messages {
		texts = append(texts, m.TextContent())
	}
	equalTraces(t, texts, []string{"delegate counting", "started the child", "child result: 1 2 3", "the child said 3"})
	ends := 0
	for _, ev := range rec.Events() {
		if _, ok := ev.(agent.AgentEnd); ok {
			ends++
		}
	}
	if ends != 1 {
		t.Fatalf("%d agent_end, want 1: the result belongs to the same run", ends)
	}
}
