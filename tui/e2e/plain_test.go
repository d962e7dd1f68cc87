package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/mcp/mcptest"
)

// cursorMoves are what a plain front end must never write: cursor
// movement and erasing (CSI A/B/C/D/H/J/K/f), the alternate screen and
// hiding the cursor.
var cursorMoves = regexp.MustCompile(`\x1b\[[0-9;?]*[ABCDHJKf]|\x1b\[\?1049[hl]|\x1b\[\?25l`)

// TestPlainModeIsAppendOnly: --plain on a real pty answers, asks an
// approval as a line, takes the answer from the next line, and writes
// nothing but lines of text: no escape sequence at all.
func TestPlainModeIsAppendOnly(t *testing.T) {
	r := startPTY(t, "--plain")
	r.waitText("the welcome", "steer, plain mode", 10*time.Second)
	r.write("hello\r")
	r.waitText("the answer", "steer: You said: hello", 10*time.Second)
	r.write("run echo plain-ok\r")
	r.waitText("the approval question", "? y (allow), a (always: Bash(echo plain-ok:*)), p (save it to the project config), g (save it to the global config), n (deny)", 10*time.Second)
	r.write("y\r")
	r.waitText("the tool's result", "tool bash ok:\r\n  plain-ok", 10*time.Second)
	r.write("/quit\r")
	select {
	case <-r.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("steer --plain did not end on /quit; output:\n%q", r.raw())
	}
	raw := r.raw()
	if m := cursorMoves.FindString(raw); m != "" {
		t.Errorf("the output moves the cursor (%q):\n%q", m, raw)
	}
	if strings.Contains(raw, "\x1b") {
		t.Errorf("the output holds escape sequences:\n%q", raw)
	}
	for _, want := range []string{"you: hello", "approval: allow"} {
		if !strings.Contains(raw, want) {
			t.Errorf("output lacks %q:\n%q", want, raw)
		}
	}
}

// TestPlainModeAsksTrustAndInput: in plain mode a workspace that brings a
// project config asks for trust as a line, and an MCP server's request for
// input is asked a field per line, the answer the tool's result.
func TestPlainModeAsksTrustAndInput(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, ".steer"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".steer", "config.json"), []byte(`{"ui": {"notifications": "bell"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	command, args, env := mcptest.Command(mcptest.ModeOK)
	raw, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"srv": map[string]any{"command": command, "args": args, "env": env}}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(cfg, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	r := startPTYIn(t, ws, "--plain", "--config", cfg, "--approve", "auto")
	r.waitText("the trust question", "Trust this workspace? a (allow), n (not now)", 10*time.Second)
	r.write("hello\r") // not an answer: asked again, sent nowhere
	r.waitText("the question again", "answer a (allow) or n (not now)", 10*time.Second)
	r.write("n\r")
	r.waitText("the refusal", "not trusted: nothing it brings applies", 10*time.Second)
	r.waitText("the server ready", "mcp srv: ready", 20*time.Second)
	r.write("call mcp__srv__ask {}\r")
	r.waitText("the server's question", "MCP srv asks", 20*time.Second)
	r.write("Ada\r")
	r.waitText("the answer in the tool's result", `accept {"name":"Ada"}`, 10*time.Second)
	if strings.Contains(r.raw(), "you: hello") {
		t.Errorf("the line typed at the trust question was sent:\n%q", r.raw())
	}
	if strings.Contains(r.raw(), "\x1b") {
		t.Errorf("the output holds escape sequences:\n%q", r.raw())
	}
}
