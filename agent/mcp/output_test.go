package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOutputSchemaChecked: a tool that declares an outputSchema has its
// structuredContent checked against it: a result that fits reaches the
// model as it is, one that does not, or has none, as an error naming the
// problem with what the server sent; error results are not checked.
func TestOutputSchemaChecked(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"answer":{"type":"integer"}},"required":["answer"]}`)
	tests := []struct {
		name       string
		res        *sdk.CallToolResult
		wantError  bool
		wantInText string
	}{
		{"fits", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "42"}}, StructuredContent: map[string]any{"answer": 42}}, false, "42"},
		{"does not fit", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "x"}}, StructuredContent: map[string]any{"answer": "x"}}, true, "does not match its outputSchema"},
		{"none", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "42"}}}, true, "returned no structuredContent"},
		{"an error result", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "it broke"}}, IsError: true}, true, "it broke"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := sdk.NewServer(&sdk.Implementation{Name: "typed", Version: "1"}, nil)
			srv.AddTool(&sdk.Tool{Name: "answer", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: schema},
				func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return tt.res, nil })
			ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
			t.Cleanup(ts.Close)
			m := started(t, Config{Name: "typed", Transport: TransportHTTP, URL: ts.URL})
			res, err := toolNamed(t, m, "mcp__typed__answer").Execute(context.Background(), "c1", nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			var text strings.Builder
			for _, c := range res.Content {
				text.WriteString(c.Text + "\n")
			}
			if res.IsError != tt.wantError || !strings.Contains(text.String(), tt.wantInText) {
				t.Errorf("result %+v", res)
			}
		})
	}
}
