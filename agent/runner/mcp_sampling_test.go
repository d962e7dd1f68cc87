package runner

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/mcp"
	"github.com/steer-tui/steer/agent/mcp/mcptest"
	"github.com/steer-tui/steer/agent/tools"
)

// TestMCPSampling: a server's sampling request during its tool's call is
// answered by the current model only where allowSampling is set, and then
// under the approval rules, the request shown in the dialog.
func TestMCPSampling(t *testing.T) {
	tests := []struct {
		name        string
		allow       bool
		mode        tools.Mode
		interactive bool
		answer      string // the answer to the sampling request's dialog; "" when none is expected
		wantResult  string
		wantModel   int // model requests: the run's two, and the sampling's
	}{
		{"not allowed: refused by the protocol", false, tools.ModeAuto, true, "", "sampling failed", 2},
		{"auto answers", true, tools.ModeAuto, true, "", "said (endTurn): a short answer", 3},
		{"ask and allow", true, tools.ModeAsk, true, "allow", "said (endTurn): a short answer", 3},
		{"ask and deny", true, tools.ModeAsk, true, "deny", "sampling refused: denied by the user", 2},
		{"ask with nobody to answer", true, tools.ModeAsk, false, "", "--approve auto", 2},
		{"never refuses", true, tools.ModeNever, true, "", `tool approval is "never"`, 2},
		{"plan mode refuses", true, tools.ModePlan, true, "", "sampling refused: plan mode", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := mcptest.NewServer(nil)
			ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
			t.Cleanup(ts.Close)
			m := mcp.New([]mcp.Config{{Name: "srv", Transport: mcp.TransportHTTP, URL: ts.URL, AllowSampling: tt.allow}}, nil, false, nil)
			t.Cleanup(m.Close)
			m.Start()
			replies := []*agenttest.Response{
				agenttest.Reply().ToolCall("c1", "mcp__srv__sample", `{"text":"write a haiku"}`).Stop(agent.StopReasonToolUse)}
			if tt.wantModel == 3 {
				replies = append(replies, agenttest.Reply().Text("a short answer").Stop(agent.StopReasonStop))
			}
			replies = append(replies, agenttest.Reply().Text("done").Stop(agent.StopReasonStop))
			script := agenttest.NewScript(replies...)
			rt := newRuntime(t, nil, script, Options{MCP: m, Approval: tt.mode, Interactive: tt.interactive})
			if err := rt.WaitMCP(context.Background()); err != nil {
				t.Fatal(err)
			}
			asked := make(chan ApprovalRequest, 4)
			rt.Subscribe(func(ev agent.Event) {
				if a, ok := ev.(agent.Annotation); ok && a.Kind == AnnotationApprovalRequest {
					asked <- a.Data.(ApprovalRequest)
				}
			})
			if err := rt.Prompt(context.Background(), "go"); err != nil {
				t.Fatal(err)
			}
			if tt.answer != "" {
				req := <-asked
				if req.ToolName != SamplingToolName("srv") || !strings.Contains(req.Summary, "write a haiku") {
					t.Fatalf("request %+v", req)
				}
				d, err := ParseApprovalDecision(tt.answer)
				if err != nil {
					t.Fatal(err)
				}
				if err := rt.Approve(req.ID, d); err != nil {
					t.Fatal(err)
				}
			}
			waitIdle(t, rt)
			var result agent.Message
			for _, msg := range rt.State().Messages {
				if msg.Role == agent.RoleToolResult {
					result = msg
				}
			}
			if !strings.Contains(result.TextContent(), tt.wantResult) {
				t.Fatalf("tool result %q, want it to contain %q", result.TextContent(), tt.wantResult)
			}
			reqs := script.Requests()
			if len(reqs) != tt.wantModel {
				t.Fatalf("%d model requests, want %d", len(reqs), tt.wantModel)
			}
			if tt.wantModel == 3 {
				s := reqs[1]
				if s.SystemPrompt != "Be brief." || len(s.Tools) != 0 || len(s.Messages) != 1 || s.Messages[0].TextContent() != "write a haiku" {
					t.Errorf("the sampling request reached the model as %+v", s)
				}
			}
		})
	}
}

// TestMCPSamplingRequestReachesTheModel: what a sampling request asks for
// reaches the model as asked — the server's system prompt, its messages
// with their images, its maxTokens — through a request without tools, and
// the answer tells the server the model's name and that it stopped at the
// cap.
func TestMCPSamplingRequestReachesTheModel(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "sampler", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "look", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			res, err := req.Session.CreateMessage(ctx, &sdk.CreateMessageParams{MaxTokens: 7, SystemPrompt: "Describe images.",
				Messages: []*sdk.SamplingMessage{
					{Role: "user", Content: &sdk.TextContent{Text: "what is this?"}},
					{Role: "assistant", Content: &sdk.TextContent{Text: "show me"}},
					{Role: "user", Content: &sdk.ImageContent{MIMEType: "image/png", Data: mcptest.PNG}},
				}})
			if err != nil {
				return nil, err
			}
			text := res.Content.(*sdk.TextContent).Text
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("%s|%s|%s|%s", res.Model, res.Role, res.StopReason, text)}}}, nil
		})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	m := mcp.New([]mcp.Config{{Name: "img", Transport: mcp.TransportHTTP, URL: ts.URL, AllowSampling: true}}, nil, false, nil)
	t.Cleanup(m.Close)
	m.Start()

	script := agenttest.NewScript(
		agenttest.Reply().ToolCall("c1", "mcp__img__look", `{}`).Stop(agent.StopReasonToolUse),
		agenttest.Reply().Text("a pixel").Stop(agent.StopReasonLength),
		agenttest.Reply().Text("done").Stop(agent.StopReasonStop))
	var (
		mu   sync.Mutex
		opts []agent.StreamOptions
	)
	record := func(ctx context.Context, model agent.Model, llm agent.LLMContext, o agent.StreamOptions) *agent.AssistantStream {
		mu.Lock()
		opts = append(opts, o)
		mu.Unlock()
		return script.Stream(ctx, model, llm, o)
	}
	rt, err := New(context.Background(), Options{Workspace: "/ws", Now: agenttest.Clock, MCP: m, Approval: tools.ModeAuto,
		Providers: []Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: record}}})
	if err != nil {
		t.Fatal(err)
	}
	stopOnCleanup(t, rt)
	if err := rt.WaitMCP(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := rt.Prompt(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)

	var result string
	for _, msg := range rt.State().Messages {
		if msg.Role == agent.RoleToolResult {
			result = msg.TextContent()
		}
	}
	if want := agenttest.Model.ID + "|assistant|maxTokens|a pixel"; result != want {
		t.Errorf("the server read %q, want %q", result, want)
	}
	reqs := script.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	s := reqs[1]
	if s.SystemPrompt != "Describe images." || len(s.Tools) != 0 || len(s.Messages) != 3 {
		t.Fatalf("the sampling request reached the model as %+v", s)
	}
	roles := []agent.Role{s.Messages[0].Role, s.Messages[1].Role, s.Messages[2].Role}
	if !slices.Equal(roles, []agent.Role{agent.RoleUser, agent.RoleAssistant, agent.RoleUser}) {
		t.Errorf("roles %v", roles)
	}
	img := s.Messages[2].Content[0]
	if img.Type != agent.ContentImage || img.MimeType != "image/png" || img.Data != base64.StdEncoding.EncodeToString(mcptest.PNG) {
		t.Errorf("the image reached the model as %+v", img)
	}
	mu.Lock()
	defer mu.Unlock()
	if opts[1].MaxTokens != 7 || opts[1].Thinking != agent.ThinkingOff {
		t.Errorf("the sampling request's options %+v, want maxTokens 7 and no thinking", opts[1])
	}
}
