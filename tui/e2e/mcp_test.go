package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/mcp/mcptest"
)

// TestMCPInTmux: an MCP server over stdio (this test binary run again,
// serving the SDK's test server), as a user sees it: /mcp lists it ready
// with its counts; a tool that asks for input opens the form, and what is
// typed there, submitted with Enter, is the tool's result.
func TestMCPInTmux(t *testing.T) {
	command, args, env := mcptest.Command(mcptest.ModeOK)
	cfg := map[string]any{"mcpServers": map[string]any{"srv": map[string]any{"command": command, "args": args, "env": env}}}
	raw, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	p := startPane(t, fmt.Sprintf("exec %q --state-dir %q --config %q --approve auto --pace 0", steerBin, t.TempDir(), path))

	p.typeText("/mcp", "Enter")
	p.waitFor("the inspector", "MCP servers", 5*time.Second)
	p.waitFor("the server ready", "1 server: 1 ready", 10*time.Second)
	if screen := p.screen(); !rowWith(screen, "srv", "stdio", "ready") {
		t.Fatalf("/mcp does not show srv ready over stdio:\n%s", screen)
	}
	p.typeText("", "Escape")
	// Text typed on the heels of Esc would arrive as Alt+key: wait for the
	// inspector to close first.
	p.waitGone("the inspector", "MCP servers", 5*time.Second)

	p.typeText(`call mcp__srv__ask {}`, "Enter")
	p.waitFor("the form", "MCP srv asks", 10*time.Second)
	p.waitFor("its help", "enter/ctrl+s submit", 5*time.Second)
	p.typeText("Ada", "Enter")
	p.waitFor("the answer in the tool's result", `accept {"name":"Ada"}`, 10*time.Second)
	if strings.Contains(p.screen(), "MCP srv asks") {
		t.Fatalf("the form stayed open:\n%s", p.screen())
	}
}
