package scripted

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/assets"
)

func TestStepKinds(t *testing.T) {
	tests := []struct {
		name   string
		step   Step
		types  []agent.AssistantEventType // nil: not checked
		reason agent.StopReason
		perr   *agent.ProviderError
		check  func(t *testing.T, msg agent.Message)
	}{
		{
			name:   "text",
			step:   Step{Text: "Hi there"},
			types:  []agent.AssistantEventType{"start", "text_start", "text_delta", "text_delta", "text_end", "done"},
			reason: agent.StopReasonStop,
			check: func(t *testing.T, msg agent.Message) {
				if msg.TextContent() != "Hi there" {
					t.Errorf("text = %q", msg.TextContent())
				}
			},
		},
		{
			name:   "thinking with signature, then a tool call",
			step:   Step{Thinking: "hmm", Signature: "sig", ToolCalls: []ToolCall{{ID: "c1", Name: "bash", Arguments: map[string]any{"command": "ls"}}}},
			reason: agent.StopReasonToolUse,
			check: func(t *testing.T, msg agent.Message) {
				th := msg.Content[0]
				if th.Type != agent.ContentThinking || th.Thinking != "hmm" || th.Signature != "sig" {
					t.Errorf("thinking block = %+v", th)
				}
				want := agent.ToolCall("c1", "bash", map[string]any{"command": "ls"})
				if calls := msg.ToolCalls(); len(calls) != 1 || !reflect.DeepEqual(calls[0], want) {
					t.Errorf("calls = %+v, want %+v", calls, want)
				}
			},
		},
		{
			name: "http error",
			step: Step{Fault: FaultHTTP, Error: &ErrorSpec{Status: 429, Type: "rate_limit_error",
				Code: "rl", Message: "slow down", Body: `{"error":"slow down"}`}},
			types:  []agent.AssistantEventType{"error"},
			reason: agent.StopReasonError,
			perr: &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 429, Type: "rate_limit_error",
				Code: "rl", Message: "slow down", Body: `{"error":"slow down"}`},
		},
		{
			name:   "http error with default message and a long body",
			step:   Step{Fault: FaultHTTP, Error: &ErrorSpec{Status: 503, Body: strings.Repeat("é", agent.MaxErrorBody)}},
			reason: agent.StopReasonError,
			perr: &agent.ProviderError{Kind: agent.ErrorHTTP, Status: 503, Message: "Service Unavailable",
				Body: agent.TruncateBody(strings.Repeat("é", agent.MaxErrorBody))},
		},
		{
			name:   "mid-stream error keeps the text",
			step:   Step{Text: "Let me", Fault: FaultStream, Error: &ErrorSpec{Type: "overloaded_error", Message: "Overloaded"}},
			types:  []agent.AssistantEventType{"start", "text_start", "text_delta", "text_delta", "text_end", "error"},
			reason: agent.StopReasonError,
			perr:   &agent.ProviderError{Kind: agent.ErrorStream, Type: "overloaded_error", Message: "Overloaded"},
			check: func(t *testing.T, msg agent.Message) {
				if msg.TextContent() != "Let me" || msg.ErrorMessage != "overloaded_error: Overloaded" {
					t.Errorf("text %q, error %q", msg.TextContent(), msg.ErrorMessage)
				}
			},
		},
		{
			name:   "malformed chunk",
			step:   Step{Text: "Here", Fault: FaultMalformed},
			reason: agent.StopReasonError,
			perr: &agent.ProviderError{Kind: agent.ErrorMalformed, Message: "cannot parse a chunk of the stream",
				Body: `data: {"type":"content_block_delta","delta":{"type":"text_delta","text":"`},
		},
		{
			name:   "empty response",
			step:   Step{Fault: FaultEmpty},
			types:  []agent.AssistantEventType{"start", "error"},
			reason: agent.StopReasonError,
			perr:   &agent.ProviderError{Kind: agent.ErrorEmpty, Message: "the response ended without any content"},
		},
		{
			name:   "length cut mid tool call",
			step:   Step{Text: "Running", Fault: FaultLength, ToolCalls: []ToolCall{{ID: "c1", Name: "bash", Arguments: map[string]any{"command": "go test ./..."}}}},
			reason: agent.StopReasonLength,
			check: func(t *testing.T, msg agent.Message) {
				if msg.TextContent() != "Running" || len(msg.ToolCalls()) != 1 {
					t.Fatalf("content = %+v", msg.Content)
				}
				if cmd, _ := msg.ToolCalls()[0].Arguments["command"].(string); cmd == "go test ./..." {
					t.Errorf("the cut call has its whole argument %q", cmd)
				}
			},
		},
		{
			name:   "hang with idle timeout",
			step:   Step{Text: "Wait", Fault: FaultHang, IdleTimeoutMS: 1},
			reason: agent.StopReasonError,
			perr:   &agent.ProviderError{Kind: agent.ErrorTimeout, Message: "no data from scripted for 1ms (idle timeout)"},
		},
		{
			name:   "usage override",
			step:   Step{Text: "x", Usage: &UsageSpec{Input: 9000, Output: 7, CacheRead: 3}},
			reason: agent.StopReasonStop,
			check: func(t *testing.T, msg agent.Message) {
				if want := (agent.Usage{Input: 9000, Output: 7, CacheRead: 3}); msg.Usage != want {
					t.Errorf("usage = %+v, want %+v", msg.Usage, want)
				}
			},
		},
		{
			name:   "default after thinking",
			step:   Step{Thinking: "ok", Default: true},
			reason: agent.StopReasonStop,
			check: func(t *testing.T, msg agent.Message) {
				if msg.Content[0].Thinking != "ok" || !strings.HasPrefix(msg.TextContent(), "You said: hello") {
					t.Errorf("content = %+v", msg.Content)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := &Scenario{Name: "test", Steps: []Step{tt.step}}
			if err := sc.Validate(); err != nil {
				t.Fatal(err)
			}
			events, msg := ask(t, New(Options{Scenario: sc, ChunkSize: 4, Now: fixedNow}), llmOf(user("hello")), agent.StreamOptions{})
			if tt.types != nil && !reflect.DeepEqual(types(events), tt.types) {
				t.Errorf("events = %v, want %v", types(events), tt.types)
			}
			if msg.StopReason != tt.reason {
				t.Errorf("stopReason = %q, want %q (%s)", msg.StopReason, tt.reason, msg.ErrorMessage)
			}
			if tt.perr != nil && tt.perr.Header == nil {
				tt.perr.Header = map[string][]string{} // a response arrived, without headers
			}
			if tt.perr != nil && !reflect.DeepEqual(msg.Error, tt.perr) {
				t.Errorf("error = %+v, want %+v", msg.Error, tt.perr)
			}
			if tt.check != nil {
				tt.check(t, msg)
			}
		})
	}
}

func TestHangEndsOnCancel(t *testing.T) {
	p := newTestProvider(&Scenario{Steps: []Step{{Text: "Wait", Fault: FaultHang}}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream := p.Stream(ctx, DefaultModel(), llmOf(user("x")), agent.StreamOptions{})
	var last agent.AssistantEvent
	for ev := range stream.Events() {
		if ev.Type == agent.EventTextDelta && ev.Partial.TextContent() == "Wait" {
			cancel() // the provider hangs until this
		}
		last = ev
	}
	msg, _ := stream.Result(context.Background())
	if last.Type != agent.EventError || msg.StopReason != agent.StopReasonAborted || msg.TextContent() != "Wait" {
		t.Errorf("last event %q, stopReason %q, text %q", last.Type, msg.StopReason, msg.TextContent())
	}
}

// replyOf names what a request got: the error's type (or kind), "default"
// for a default answer to a prompt, else the text.
func replyOf(msg agent.Message) string {
	switch {
	case msg.Error != nil && msg.Error.Type != "":
		return msg.Error.Type
	case msg.Error != nil:
		return string(msg.Error.Kind)
	case strings.HasPrefix(msg.TextContent(), "You said"):
		return "default"
	}
	return msg.TextContent()
}

func TestStepSelection(t *testing.T) {
	fail := func(typ string) Step {
		return Step{Fault: FaultHTTP, Error: &ErrorSpec{Status: 400, Type: typ}}
	}
	big := strings.Repeat("word ", 4000) // about 5,000 tokens
	type req struct {
		model   agent.Model
		profile string
		prompt  string
		want    string
	}
	echo, tiny := Models()[0], Models()[1]
	tests := []struct {
		name string
		sc   Scenario
		reqs []req
	}{
		{"one step per request, then default",
			Scenario{Steps: []Step{{Text: "one"}, {Text: "two"}}},
			[]req{{echo, "", "a", "one"}, {echo, "", "a", "two"}, {echo, "", "a", "default"}}},
		{"repeat plays the last step again",
			Scenario{Then: ThenRepeat, Steps: []Step{{Text: "one"}, {Text: "two"}}},
			[]req{{echo, "", "a", "one"}, {echo, "", "a", "two"}, {echo, "", "a", "two"}}},
		{"profile: a step waits for its profile",
			Scenario{Steps: []Step{{When: &When{Profile: "p:bad"}, Text: "bad"}, {Text: "other"}}},
			[]req{{echo, "p:good", "a", "other"}, {echo, "p:good", "a", "default"}, {echo, "p:bad", "a", "bad"}, {echo, "p:bad", "a", "default"}}},
		{"profile pattern, always",
			Scenario{Steps: []Step{{When: &When{Profile: "*:primary"}, Always: true, Fault: FaultHTTP, Error: &ErrorSpec{Status: 401, Type: "auth"}}}},
			[]req{{echo, "s:primary", "a", "auth"}, {echo, "s:backup", "a", "default"}, {echo, "s:primary", "a", "auth"}}},
		{"model by id or reference",
			Scenario{Steps: []Step{
				{When: &When{Model: "tiny"}, Always: true, Text: "tiny"},
				{When: &When{Model: "scripted/e*"}, Always: true, Text: "echo"}}},
			[]req{{tiny, "", "a", "tiny"}, {echo, "", "a", "echo"}, {tiny, "", "a", "tiny"}}},
		{"context size",
			Scenario{Steps: []Step{{When: &When{MinContextTokens: 4000}, Always: true, Fault: FaultHTTP,
				Error: &ErrorSpec{Status: 400, Type: "overflow"}}}},
			[]req{{echo, "", "short", "default"}, {echo, "", big, "overflow"}, {echo, "", "short", "default"}}},
		{"all conditions must hold",
			Scenario{Steps: []Step{{When: &When{Profile: "x", Model: "tiny"}, Always: true, Text: "both"}}},
			[]req{{tiny, "y", "a", "default"}, {echo, "x", "a", "default"}, {tiny, "x", "a", "both"}}},
		{"first matching step wins",
			Scenario{Steps: []Step{fail("first"), fail("second")}},
			[]req{{echo, "", "a", "first"}, {echo, "", "a", "second"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newTestProvider(&tt.sc)
			for i, r := range tt.reqs {
				stream := p.Stream(context.Background(), r.model, llmOf(user(r.prompt)), agent.StreamOptions{Profile: r.profile})
				_, msg := drain(t, stream)
				if got := replyOf(msg); got != r.want {
					t.Errorf("request %d got %q, want %q", i+1, got, r.want)
				}
			}
		})
	}
}

func TestInvalidStepFailsTheRequest(t *testing.T) {
	p := newTestProvider(&Scenario{Name: "bad", Steps: []Step{{Fault: "explode"}}})
	_, msg := ask(t, p, llmOf(user("x")), agent.StreamOptions{})
	if msg.StopReason != agent.StopReasonError || !strings.Contains(msg.ErrorMessage, `step 1: unknown fault "explode"`) {
		t.Errorf("stopReason %q, error %q", msg.StopReason, msg.ErrorMessage)
	}
}

func TestShippedScenariosLoad(t *testing.T) {
	names := assets.ScenarioNames()
	for _, want := range []string{"rate-limit", "overloaded-midstream", "idle-hang", "context-overflow", "auth-rotation", "tool-demo"} {
		if !contains(names, want) {
			t.Errorf("scenario %q is not shipped (have %v)", want, names)
		}
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			sc, err := LoadScenario(name)
			if err != nil {
				t.Fatal(err)
			}
			if sc.Description == "" || len(sc.Steps) == 0 {
				t.Errorf("scenario %s has no description or no steps", name)
			}
		})
	}
}

func TestShippedScenariosPlay(t *testing.T) {
	big := strings.Repeat("many words ", 2000)
	tests := []struct {
		name    string
		profile string
		prompt  string
		want    []string // reply of each request, as replyOf names it
	}{
		{"rate-limit", "", "hi", []string{"rate_limit_error", "default"}},
		{"overloaded-midstream", "", "hi", []string{"overloaded_error", "default"}},
		{"auth-rotation", "scripted:primary", "hi", []string{"authentication_error", "authentication_error"}},
		{"auth-rotation", "scripted:backup", "hi", []string{"default"}},
		{"billing", "scripted:primary", "hi", []string{"invalid_request_error"}},
		{"context-overflow", "", "hi", []string{"default", "default"}},
		{"context-overflow", "", big, []string{"invalid_request_error", "invalid_request_error"}},
		{"flaky", "", "hi", []string{"malformed", "empty", "I will run the tests.", "default"}},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.profile+"/"+tt.prompt[:2], func(t *testing.T) {
			sc, err := LoadScenario(tt.name)
			if err != nil {
				t.Fatal(err)
			}
			p := newTestProvider(sc)
			for i, want := range tt.want {
				_, msg := ask(t, p, llmOf(user(tt.prompt)), agent.StreamOptions{Profile: tt.profile})
				if got := replyOf(msg); got != want {
					t.Errorf("request %d got %q, want %q", i+1, got, want)
				}
			}
		})
	}
}

func TestToolDemoScenario(t *testing.T) {
	sc, err := LoadScenario("tool-demo")
	if err != nil {
		t.Fatal(err)
	}
	p := newTestProvider(sc)
	_, first := ask(t, p, llmOf(user("what is here?")), agent.StreamOptions{})
	if first.StopReason != agent.StopReasonToolUse || first.Content[0].Type != agent.ContentThinking ||
		first.Content[0].Signature == "" || first.ToolCalls()[0].Name != "ls" {
		t.Fatalf("first response = %+v", first)
	}
	call := first.ToolCalls()[0]
	_, second := ask(t, p, llmOf(user("what is here?"), first, toolResult(call, "go.mod\nmain.go", false)), agent.StreamOptions{})
	if second.Content[0].Type != agent.ContentThinking || !strings.Contains(second.TextContent(), "- `main.go`") {
		t.Errorf("second response = %+v", second.Content)
	}
}

func TestLoadScenarioErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		arg  string
		want []string
	}{
		{"unknown name", "no-such-scenario", []string{`unknown scenario "no-such-scenario"`, "rate-limit"}},
		{"missing file", filepath.Join(dir, "missing.json"), []string{"missing.json", "no such file"}},
		{"bad JSON", write("bad.json", "{\n  \"steps\": [\n    {\"text\": \"a\",}\n  ]\n}"), []string{"bad.json:3:"}},
		{"wrong type", write("type.json", "{\n  \"steps\": [\n    {\"text\": 7}\n  ]\n}"), []string{"type.json:3:"}},
		{"unknown field", write("field.json", "{\n  \"steps\": [\n    {\"text\": \"a\",\n     \"colour\": \"red\"}\n  ]\n}"),
			[]string{"field.json:4:", `unknown field "colour"`}},
		{"trailing data", write("trail.json", "{\"steps\": []}\n{}"), []string{"trail.json:2:", "after the scenario"}},
		{"empty file", write("empty.json", ""), []string{"empty.json", "empty file"}},
		{"bad then", write("then.json", `{"then": "loop", "steps": []}`), []string{"then.json", `then is "loop"`}},
		{"http without status", write("http.json", `{"steps": [{"text": "x"}, {"fault": "http"}]}`),
			[]string{"http.json: step 2:", "error.status"}},
		{"empty step", write("nothing.json", `{"steps": [{"pace": 3}]}`), []string{"step 1: nothing to play"}},
		{"default with text", write("def.json", `{"steps": [{"default": true, "text": "x"}]}`), []string{"default excludes"}},
		{"bad pattern", write("pat.json", `{"steps": [{"when": {"profile": "["}, "text": "x"}]}`), []string{"bad pattern"}},
		{"call without name", write("call.json", `{"steps": [{"toolCalls": [{"arguments": {}}]}]}`), []string{"toolCalls[0] has no name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := LoadScenario(tt.arg)
			if err == nil {
				t.Fatalf("loaded %+v, want an error", sc)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestLoadScenarioFromFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "mine.json")
	body := `{"description": "d", "then": "repeat", "steps": [{"when": {"model": "tiny"}, "text": "small"}]}`
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	sc, err := LoadScenario(p)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Name != p || sc.Then != ThenRepeat || sc.Steps[0].When.Model != "tiny" || sc.Steps[0].Text != "small" {
		t.Errorf("scenario = %+v", sc)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
