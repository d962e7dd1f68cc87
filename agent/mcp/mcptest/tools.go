package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools of NewServer, by name:
//   - echo {text}: the text back (read-only), and a log message
//   - image, audio: one content block of that kind
//   - resource: an embedded text resource
//   - structured: structuredContent only, {"answer": 42}
//   - fail: an isError result, "it broke"
//   - slow: a progress notification, then waits for the call's
//     cancellation (seen by calls)
//   - grow: adds the tool "extra", which sends tools/list_changed
//   - ask: asks the user for a name (elicitation) and returns the action
//     and the content
//   - sample {text} (read-only, so that only its sampling asks): asks the client's model to complete text (sampling)
//     and returns "<model> said (<stopReason>): <answer>", or an isError
//     result when the client refused
//   - die: ends the server's process (over stdio only: over HTTP the
//     process is the test's)
var objectSchema = json.RawMessage(`{"type":"object"}`)

// NewServer is the test server; calls (nil for none) sees its slow calls'
// cancellations.
func NewServer(calls *Calls) *sdk.Server {
	if calls == nil {
		calls = &Calls{}
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "mcptest", Version: "1"}, nil)
	text := func(t string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: t}}}
	}
	s.AddTool(&sdk.Tool{Name: "echo", Description: "Echoes text.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var in struct{ Text string }
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			_ = req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "info", Logger: "echo", Data: "echoing " + in.Text})
			return text(in.Text), nil
		})
	add := func(name string, res *sdk.CallToolResult) {
		s.AddTool(&sdk.Tool{Name: name, InputSchema: objectSchema}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return res, nil
		})
	}
	add("image", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: PNG}}})
	add("audio", &sdk.CallToolResult{Content: []sdk.Content{&sdk.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF0000")}}})
	add("resource", &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{
		Resource: &sdk.ResourceContents{URI: "test://notes", MIMEType: "text/plain", Text: "the notes"}}}})
	add("structured", &sdk.CallToolResult{Content: []sdk.Content{}, StructuredContent: map[string]any{"answer": 42}})
	add("fail", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "it broke"}}, IsError: true})
	s.AddTool(&sdk.Tool{Name: "slow", InputSchema: objectSchema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		if tok := req.Params.GetProgressToken(); tok != nil {
			_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 2, Message: "halfway"})
		}
		<-ctx.Done()
		calls.cancel()
		return nil, ctx.Err()
	})
	s.AddTool(&sdk.Tool{Name: "grow", InputSchema: objectSchema}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		add("extra", text("extra"))
		return text("grown"), nil
	})
	s.AddTool(&sdk.Tool{Name: "ask", InputSchema: objectSchema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &sdk.ElicitParams{Message: "Your name?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}})
		if err != nil {
			return nil, err
		}
		raw, _ := json.Marshal(res.Content)
		return text(res.Action + " " + string(raw)), nil
	})
	s.AddTool(&sdk.Tool{Name: "sample", Description: "Asks the client's model to complete the text.", InputSchema: objectSchema,
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var args struct{ Text string }
			_ = json.Unmarshal(req.Params.Arguments, &args)
			res, err := req.Session.CreateMessage(ctx, &sdk.CreateMessageParams{MaxTokens: 100, SystemPrompt: "Be brief.",
				Messages: []*sdk.SamplingMessage{{Role: "user", Content: &sdk.TextContent{Text: args.Text}}}})
			if err != nil {
				return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "sampling failed: " + err.Error()}}}, nil
			}
			answer := ""
			if t, ok := res.Content.(*sdk.TextContent); ok {
				answer = t.Text
			}
			return text(fmt.Sprintf("%s said (%s): %s", res.Model, res.StopReason, answer)), nil
		})
	s.AddTool(&sdk.Tool{Name: "die", InputSchema: objectSchema}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		os.Exit(4)
		return nil, nil
	})
	addCatalog(s)
	return s
}

// addCatalog gives the server a prompt, a resource and a template.
func addCatalog(s *sdk.Server) {
	s.AddPrompt(&sdk.Prompt{Name: "greet", Description: "Greets someone.", Arguments: []*sdk.PromptArgument{{Name: "name", Required: true}}},
		func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user",
				Content: &sdk.TextContent{Text: "Say hello to " + req.Params.Arguments["name"]}}}}, nil
		})
	s.AddResource(&sdk.Resource{URI: "test://readme", Name: "readme", MIMEType: "text/plain"},
		func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "read me"}}}, nil
		})
	s.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: "test://items/{id}", Name: "item"},
		func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, Text: "item " + req.Params.URI}}}, nil
		})
}
