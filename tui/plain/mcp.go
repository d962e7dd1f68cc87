package plain

import (
	"fmt"

	"github.com/steer-tui/steer/agent/runner"
)

// watchMCP writes a line each time an MCP server's state changes ("mcp
// fs: ready, 14 tools"), so that a reader knows when its tools are there.
func (p *printer) watchMCP(h *runner.Host) (unsubscribe func()) {
	seen := map[string]runner.MCPState{}
	report := func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, s := range h.MCPServers() {
			if seen[s.Name] == s.State {
				continue
			}
			seen[s.Name] = s.State
			p.sayLocked(mcpLine(s))
		}
	}
	stop := h.SubscribeMCP(report)
	report()
	return stop
}

// mcpLine says how a server stands.
func mcpLine(s runner.MCPServer) string {
	line := fmt.Sprintf("mcp %s: %s", s.Name, s.State)
	switch {
	case s.State == runner.MCPReady:
		line += fmt.Sprintf(", %d tools", s.Tools)
	case s.Error != "":
		line += ": " + s.Error
	case s.LoginHint != "":
		line += " (" + s.LoginHint + ")"
	}
	return line
}
