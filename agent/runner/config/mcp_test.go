package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/mcp"
)

func TestMCPServers(t *testing.T) {
	path := writeConfig(t, `{"mcpServers": {
		"files": {"command": "npx", "args": ["-y", "srv"], "env": {"K": "${TOKEN}"}, "cwd": "sub", "timeoutSeconds": 2, "toolTimeoutSeconds": 90,
		          "tools": {"allow": ["read"], "deny": ["write"]}},
		"remote": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}, "enabled": false, "allowSampling": true}
	}, "mcpTrustedProjects": [{"path": "/w/.mcp.json", "sha256": "`+strings.Repeat("ab", 32)+`"}]}`)
	c, err := load(path, envOf(nil), defaultCatalogue)
	if err != nil {
		t.Fatal(err)
	}
	want := []mcp.Config{
		{Name: "files", Transport: mcp.TransportStdio, Command: "npx", Args: []string{"-y", "srv"}, Env: map[string]string{"K": "${TOKEN}"},
			Dir: filepath.Join(filepath.Dir(path), "sub"), Timeout: 2 * time.Second, CallTimeout: 90 * time.Second, Tools: mcp.ToolFilter{Allow: []string{"read"}, Deny: []string{"write"}}},
		{Name: "remote", Transport: mcp.TransportHTTP, URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}, Disabled: true, AllowSampling: true},
	}
	if !reflect.DeepEqual(c.MCPServers, want) {
		t.Errorf("servers:\n got %+v\nwant %+v", c.MCPServers, want)
	}
	if len(c.MCPTrustedProjects) != 1 || c.MCPTrustedProjects[0].Path != "/w/.mcp.json" {
		t.Errorf("trusted: %+v", c.MCPTrustedProjects)
	}
}

func TestMCPServersRefused(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"unknown key", `{"mcpServers": {"a": {"command": "x", "comand": "y"}}}`, `unknown key "mcpServers.a.comand"`},
		{"no command", `{"mcpServers": {"a": {"args": ["x"]}}}`, `mcpServers.a: "command" is required`},
		{"url without type", `{"mcpServers": {"a": {"url": "http://x"}}}`, `need "type": "http" or "sse"`},
		{"bad type", `{"mcpServers": {"a": {"type": "ws", "url": "http://x"}}}`, `unknown type "ws"`},
		{"bad name", `{"mcpServers": {"a.b": {"command": "x"}}}`, `use letters, digits`},
		{"sampling not a bool", `{"mcpServers": {"a": {"command": "x", "allowSampling": "yes"}}}`, `allowSampling`},
		{"negative timeout", `{"mcpServers": {"a": {"command": "x", "timeoutSeconds": -1}}}`, `must not be negative`},
		{"negative tool timeout", `{"mcpServers": {"a": {"command": "x", "toolTimeoutSeconds": -1}}}`, `toolTimeoutSeconds: must not be negative`},
		{"relative trust", `{"mcpTrustedProjects": [{"path": "w/.mcp.json", "sha256": "x"}]}`, `want the absolute path`},
		{"bad hash", `{"mcpTrustedProjects": [{"path": "/w/.mcp.json", "sha256": "x"}]}`, `want the file's SHA-256`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := load(writeConfig(t, c.body), envOf(nil), defaultCatalogue)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}

func TestLoadMCPProject(t *testing.T) {
	dir := t.TempDir()
	if p, err := LoadMCPProject(dir); p != nil || err != nil {
		t.Fatalf("no file: %v, %v", p, err)
	}
	body := `{"mcpServers": {"echo": {"command": "./srv", "args": ["--x"]}}}`
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := LoadMCPProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Path != filepath.Join(dir, ".mcp.json") || p.Hash != mcp.HashOf([]byte(body)) || len(p.Servers) != 1 || p.Servers[0].Command != "./srv" {
		t.Errorf("project: %+v", p)
	}
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(`{"mcpServers": {"x": {}}, "other": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadMCPProject(dir); err == nil || !strings.Contains(err.Error(), ".mcp.json:1") {
		t.Errorf("a bad file: %v", err)
	}
}
