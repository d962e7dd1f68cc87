package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"

	"github.com/steer-tui/steer/agent/mcp"
	"github.com/steer-tui/steer/agent/mcp/oauth"
)

// The MCP servers, in Claude Code's shape: in steer's config under
// "mcpServers", and in a workspace's .mcp.json under the same key.
//
//	"mcpServers": {
//	  "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."],
//	            "env": {"DEBUG": "${DEBUG:-0}"}, "cwd": "sub", "timeoutSeconds": 60},
//	  "remote": {"type": "http", "url": "https://example.com/mcp",
//	             "headers": {"Authorization": "Bearer ${EXAMPLE_TOKEN}"},
//	             "tools": {"allow": ["search"], "deny": []}, "enabled": false,
//	             "oauth": {"clientId": "steer", "scopes": ["read"]}}
//	}
//
// "mcpTrustedProjects" (steer's config only) lists the workspace files
// whose servers start without asking: [{"path": ".../.mcp.json",
// "sha256": "..."}], as `steer mcp list` prints them.
type fileMCPServer struct {
	Type           string            `json:"type"`
	Command        string            `json:"command"`
	Args           []string          `json:"args"`
	Env            map[string]string `json:"env"`
	Cwd            string            `json:"cwd"`
	URL            string            `json:"url"`
	Headers        map[string]string `json:"headers"`
	Enabled        *bool             `json:"enabled"`
	Tools          fileMCPTools      `json:"tools"`
	TimeoutSeconds float64           `json:"timeoutSeconds"`
	ToolTimeout    float64           `json:"toolTimeoutSeconds"`
	AllowSampling  bool              `json:"allowSampling"`
	OAuth          *fileMCPOAuth     `json:"oauth"`
}

type fileMCPOAuth struct {
	ClientID     string   `json:"clientId"`
	ClientSecret string   `json:"clientSecret"`
	Scopes       []string `json:"scopes"`
}

type fileMCPTools struct {
	Allow []string `json:"allow"`
	Deny  []string `json:"deny"`
}

type fileMCPTrust struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// mcp checks and stores mcpServers and mcpTrustedProjects.
func (b *builder) mcp(c *Config, fc *fileConfig, root *node) error {
	servers, err := mcpServers(b.errAt, fc.MCPServers, root.get("mcpServers"), b.dirOf)
	if err != nil {
		return err
	}
	c.MCPServers = servers
	for i, t := range fc.MCPTrustedProjects {
		path := indexPath("mcpTrustedProjects", i)
		switch {
		case !filepath.IsAbs(t.Path):
			return b.errAt(path+".path", "want the absolute path of a %s, got %q", mcp.ProjectFile, t.Path)
		case !sha256Hex.MatchString(t.SHA256):
			return b.errAt(path+".sha256", "want the file's SHA-256 in lower-case hex, as 'steer mcp list' prints it")
		}
		c.MCPTrustedProjects = append(c.MCPTrustedProjects, mcp.Allowance{Path: filepath.Clean(t.Path), SHA256: t.SHA256})
	}
	return nil
}

// mcpServers reads the servers in file order; a relative cwd is taken
// from dirOf its path: the directory of the file that set it.
func mcpServers(errAt func(path, format string, args ...any) *Error, servers map[string]fileMCPServer, n *node, dirOf func(path string) string) ([]mcp.Config, error) {
	var out []mcp.Config
	for _, f := range n.keysOrNil() {
		fs := servers[f.name]
		path := joinPath("mcpServers", f.name)
		c := mcp.Config{Name: f.name, Transport: mcp.Transport(fs.Type), Command: fs.Command, Args: fs.Args, Env: fs.Env,
			Dir: fs.Cwd, URL: fs.URL, Headers: fs.Headers, Disabled: fs.Enabled != nil && !*fs.Enabled,
			Tools: mcp.ToolFilter{Allow: fs.Tools.Allow, Deny: fs.Tools.Deny}, Timeout: seconds(fs.TimeoutSeconds), CallTimeout: seconds(fs.ToolTimeout), AllowSampling: fs.AllowSampling}
		if c.Transport == "" {
			c.Transport = mcp.TransportStdio
		}
		if fs.OAuth != nil {
			c.OAuth = &oauth.ClientConfig{ClientID: fs.OAuth.ClientID, ClientSecret: fs.OAuth.ClientSecret, Scopes: fs.OAuth.Scopes}
		}
		if c.Dir != "" && !filepath.IsAbs(c.Dir) {
			c.Dir = filepath.Join(dirOf(path+".cwd"), c.Dir)
		}
		switch {
		case fs.TimeoutSeconds < 0:
			return nil, errAt(path+".timeoutSeconds", "must not be negative, got %g", fs.TimeoutSeconds)
		case fs.ToolTimeout < 0:
			return nil, errAt(path+".toolTimeoutSeconds", "must not be negative, got %g", fs.ToolTimeout)
		}
		if err := c.Check(); err != nil {
			return nil, errAt(path, "%v", err)
		}
		out = append(out, c)
	}
	return out, nil
}

// LoadMCPProject reads the workspace's .mcp.json, as strictly as steer's
// config: nil when there is none. The file's servers are checked but not
// trusted: the caller decides whether they start (mcp.Project).
func LoadMCPProject(workspace string) (*mcp.Project, error) {
	path := filepath.Join(workspace, mcp.ProjectFile)
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("mcp: %w", err)
	}
	root, err := parse(path, withoutBOM(data))
	if err != nil {
		return nil, err
	}
	var f struct {
		MCPServers map[string]fileMCPServer `json:"mcpServers"`
	}
	d := newDecoder(path)
	if err := d.decode(root, reflect.ValueOf(&f).Elem(), ""); err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	servers, err := mcpServers(d.errAt, f.MCPServers, root.get("mcpServers"), func(string) string { return dir })
	if err != nil {
		return nil, err
	}
	return &mcp.Project{Path: path, Hash: mcp.HashOf(data), Servers: servers}, nil
}
