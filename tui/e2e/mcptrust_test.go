package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/mcp/mcptest"
)

// TestMCPTrustInTmux: a workspace's .mcp.json starts nothing until the
// user allows it. The question names the server's command; allowed, the
// server starts (/mcp shows it ready) and its sampling request asks in its
// own dialog, showing what the server asks, then is answered by the model;
// a restart with the same file asks nothing; a changed file asks again,
// and "not now" leaves the server untrusted.
func TestMCPTrustInTmux(t *testing.T) {
	requireTmux(t)
	ws, state := t.TempDir(), t.TempDir()
	command, args, env := mcptest.Command(mcptest.ModeOK)
	writeMCPJSON(t, ws, map[string]any{"command": command, "args": args, "env": env, "allowSampling": true})
	start := func() *pane {
		return startPane(t, fmt.Sprintf("cd %q && exec %q --state-dir %q --pace 0", ws, steerBin, state))
	}

	p := start()
	p.waitFor("the trust question", "Trust this workspace?", 10*time.Second)
	p.waitFor("the command it would run", "repo: "+command, 5*time.Second)
	time.Sleep(quiet) // a deliberate key, not one typed ahead
	p.typeText("a")
	p.waitGone("the trust question", "Trust this workspace?", 5*time.Second)
	p.mcpShows("repo", "ready")

	p.typeText(`call mcp__repo__sample {"text":"write a haiku"}`, "Enter")
	p.waitFor("the sampling dialog", "Allow mcp__repo:sampling?", 10*time.Second)
	if s := p.screen(); !strings.Contains(s, "MCP repo asks") || !strings.Contains(s, `"maxTokens": 100`) || !strings.Contains(s, "Be brief.") {
		t.Fatalf("the sampling dialog does not name the server and show the request:\n%s", s)
	}
	time.Sleep(quiet)
	p.typeText("y")
	p.waitFor("the model's answer as the tool's result", "said (endTurn): You said: write a haiku", 10*time.Second)
	p.quit()

	p = start()
	p.mcpShows("repo", "ready")
	if s := p.screen(); strings.Contains(s, "Trust this workspace?") {
		t.Fatalf("an unchanged file asked again:\n%s", s)
	}
	p.quit()

	writeMCPJSON(t, ws, map[string]any{"command": command, "args": append(args, "-test.v"), "env": env})
	p = start()
	p.waitFor("the question for the changed file", "Trust this workspace?", 10*time.Second)
	p.waitFor("the new command", "-test.v", 5*time.Second)
	time.Sleep(quiet)
	p.typeText("n")
	p.waitGone("the trust question", "Trust this workspace?", 5*time.Second)
	p.mcpShows("repo", "untrusted")
}

// writeMCPJSON writes ws/.mcp.json with one server, repo.
func writeMCPJSON(t *testing.T, ws string, repo map[string]any) {
	t.Helper()
	raw, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"repo": repo}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".mcp.json"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

// mcpShows opens /mcp, waits for the server's row in state, and closes it.
func (p *pane) mcpShows(server, state string) {
	p.t.Helper()
	p.typeText("/mcp", "Enter")
	p.waitFor("the inspector", "MCP servers", 5*time.Second)
	for start := time.Now(); !rowWith(p.screen(), server, state); time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > 15*time.Second {
			p.t.Fatalf("/mcp does not show %s %s:\n%s", server, state, p.screen())
		}
	}
	p.typeText("", "Escape")
	// Text typed on the heels of Esc would arrive as Alt+key.
	p.waitGone("the inspector", "MCP servers", 5*time.Second)
}

// quit quits steer with Ctrl+C twice and waits for its tmux server to end.
func (p *pane) quit() {
	p.t.Helper()
	p.typeText("", "C-c", "C-c")
	for start := time.Now(); exec.Command("tmux", "-L", p.socket, "has-session").Run() == nil; time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			p.t.Fatalf("steer did not quit; the screen:\n%s", p.screen())
		}
	}
}
