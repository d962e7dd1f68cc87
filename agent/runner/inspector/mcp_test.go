package inspector

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

func TestMCPTable(t *testing.T) {
	servers := []runner.MCPServer{
		{Name: "files", Transport: "stdio", Source: runner.MCPFromConfig, State: runner.MCPReady, Tools: 3, Prompts: 1, Resources: 2},
		{Name: "crashy", Transport: "stdio", Source: runner.MCPFromConfig, State: runner.MCPFailed, Error: "exited: status 3",
			Stderr: []string{"boom"}, Restarts: 3},
		{Name: "remote", Transport: "http", Source: runner.MCPFromConfig, State: runner.MCPNeedsLogin, LoginHint: "steer mcp login remote"},
		{Name: "repo", Transport: "stdio", Source: runner.MCPFromProject, State: runner.MCPUntrusted},
	}
	tab := mcpTable(servers)
	if want := "4 servers: 1 ready, 1 failed, 1 needs login, 1 untrusted"; tab.Summary != want {
		t.Errorf("summary = %q, want %q", tab.Summary, want)
	}
	cases := []struct {
		row      int
		state    Cell
		server   *Server
		inDetail string
	}{
		{0, Cell{Text: "ready", Tone: ToneOK}, &Server{Name: "files"}, "3 tools, 1 prompt, 2 resources"},
		{1, Cell{Text: "failed", Tone: ToneBad}, &Server{Name: "crashy"}, "stderr: boom"},
		{2, Cell{Text: "needs login", Tone: ToneWarn}, &Server{Name: "remote", CanLogin: true}, "l here, or steer mcp login remote"},
		{3, Cell{Text: "untrusted", Tone: ToneWarn}, nil, "not trusted"},
	}
	for _, c := range cases {
		r := tab.Rows[c.row]
		if r.Cells[2] != c.state {
			t.Errorf("row %d state = %+v, want %+v", c.row, r.Cells[2], c.state)
		}
		if (r.Server == nil) != (c.server == nil) || r.Server != nil && *r.Server != *c.server {
			t.Errorf("row %d server = %+v, want %+v", c.row, r.Server, c.server)
		}
		if d := strings.Join(r.Detail, "\n"); !strings.Contains(d, c.inDetail) {
			t.Errorf("row %d detail = %q, want it to hold %q", c.row, d, c.inDetail)
		}
	}
	if got := mcpTable(nil); len(got.Rows) != 0 || got.Summary != "" {
		t.Errorf("empty table = %+v", got)
	}
}

func TestMCPJSONAndPrint(t *testing.T) {
	raw, err := json.Marshal(MCP.JSON(nil))
	if err != nil || string(raw) != `{"servers":[]}` {
		t.Errorf("JSON(nil) = %s, %v", raw, err)
	}
	var b bytes.Buffer
	MCP.Print(&b, []runner.MCPServer{{Name: "crashy", Transport: "stdio", State: runner.MCPFailed, Error: "exited", Stderr: []string{"boom"}}}, time.Time{})
	for _, want := range []string{"crashy", "failed", "exited", "crashy's last stderr lines:\n  boom"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("Print = %q, want it to hold %q", b.String(), want)
		}
	}
}
