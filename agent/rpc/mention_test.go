package rpc

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/mcp"
	"github.com/steer-tui/steer/agent/mcp/mcptest"
	"github.com/steer-tui/steer/agent/runner"
)

// TestPromptAttachesMentions: what a prompt @-mentions goes with it — a
// workspace file, an MCP server's resource — as from the TUI and steer
// run (all through Runtime.Attach); a mention that cannot be read fails
// the command and sends nothing.
func TestPromptAttachesMentions(t *testing.T) {
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("the notes' text"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := mcptest.NewServer(nil)
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(ts.Close)
	tests := []struct {
		name, message, want, wantErr string
	}{
		{"a file", "summarise @notes.txt", "the notes' text", ""},
		{"an MCP resource", "summarise @srv:test://readme", "read me", ""},
		{"a template's resource", "summarise @srv:test://items/7", "item test://items/7", ""},
		{"a resource the server does not have", "summarise @srv:test://nothing", "", "cannot attach @srv:test://nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mcp.New([]mcp.Config{{Name: "srv", Transport: mcp.TransportHTTP, URL: ts.URL}}, nil, false, nil)
			t.Cleanup(m.Close)
			m.Start()
			if err := m.Settled(context.Background()); err != nil {
				t.Fatal(err)
			}
			script := agenttest.NewScript(agenttest.Reply().Text("read").Stop(agent.StopReasonStop))
			h := newHarnessWith(t, script, runner.Options{Workspace: ws, MCP: m})
			h.send(`{"id":"p","type":"prompt","message":"` + tt.message + `"}`)
			_, resp := h.run("p")
			if tt.wantErr != "" {
				if resp["success"] != false || !strings.Contains(resp["error"].(string), tt.wantErr) || len(script.Requests()) != 0 {
					t.Fatalf("prompt: %v, %d requests", resp, len(script.Requests()))
				}
				return
			}
			if resp["success"] != true {
				t.Fatalf("prompt: %v", resp)
			}
			reqs := script.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			var sent strings.Builder
			for _, c := range reqs[0].Messages[len(reqs[0].Messages)-1].Content {
				sent.WriteString(c.Text)
			}
			if !strings.Contains(sent.String(), tt.want) {
				t.Errorf("the request's last message does not carry %q: %q", tt.want, sent.String())
			}
		})
	}
}
