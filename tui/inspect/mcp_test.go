package inspect

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
)

// servers are the MCP servers of a session: one ready, one that crashed
// (its stderr kept), a remote one that needs a login and the workspace's,
// not trusted yet.
func servers() []runner.MCPServer {
	return []runner.MCPServer{
		{Name: "files", Transport: runner.MCPStdio, Source: runner.MCPFromConfig, State: runner.MCPReady, Tools: 14, Prompts: 0, Resources: 3},
		{Name: "crashy", Transport: runner.MCPStdio, Source: runner.MCPFromConfig, State: runner.MCPFailed,
			Error: "the server exited: exit status 3", Stderr: []string{"panic: no config", "goroutine 1 [running]"}, Restarts: 3},
		{Name: "remote", Transport: "http", Source: runner.MCPFromConfig, State: runner.MCPNeedsLogin,
			Error: "401 Unauthorized", LoginHint: "steer mcp login remote"},
		{Name: "repo", Transport: runner.MCPStdio, Source: runner.MCPFromProject, State: runner.MCPUntrusted},
	}
}

var (
	restartK = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'r'}}
	loginK   = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'l'}}
)

// TestMCPInspector: each server's row, the failed one's stderr under the
// table; r restarts the selected server, l logs in to a remote one only,
// and neither acts on a server that was never started.
func TestMCPInspector(t *testing.T) {
	now := epoch
	m := newInspector(msgs.InspectMCP, &now, 120, 16)
	m.SetView(servers())
	m, _ = press(m, down)
	checkView(t, m, 120, 16)

	cases := []struct {
		name  string
		downs int
		key   tea.KeyMsg
		want  tea.Msg // nil: the key does nothing here
	}{
		{"r restarts a failed server", 1, restartK, msgs.RestartMCPMsg{Server: "crashy"}},
		{"r restarts a ready one", 0, restartK, msgs.RestartMCPMsg{Server: "files"}},
		{"l logs in to a remote server", 2, loginK, msgs.LoginMCPMsg{Server: "remote"}},
		{"no login over stdio", 1, loginK, nil},
		{"no restart of an untrusted server", 3, restartK, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newInspector(msgs.InspectMCP, &now, 120, 16)
			m.SetView(servers())
			for range c.downs {
				m, _ = press(m, down)
			}
			_, out := press(m, c.key)
			switch {
			case c.want == nil && len(out) != 0:
				t.Fatalf("sent %v", out)
			case c.want != nil && (len(out) != 1 || out[0] != c.want):
				t.Fatalf("sent %v, want %v", out, c.want)
			}
		})
	}
}
