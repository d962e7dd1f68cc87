package mcp

import (
	"fmt"
	"slices"
	"time"

	"github.com/steer-tui/steer/agent/mcp/oauth"
)

// Transport is how steer talks to a server.
type Transport string

// The transports, as the "type" key names them (stdio when it is absent).
const (
	TransportStdio Transport = "stdio"
	TransportHTTP  Transport = "http"
	TransportSSE   Transport = "sse"
)

// Source says which file configured a server.
type Source string

// The sources: steer's config file, or the workspace's .mcp.json.
const (
	SourceConfig  Source = "config"
	SourceProject Source = "project"
)

// DefaultTimeout bounds a server's start (connect, initialize and the first
// listings) and each listing after it when timeoutSeconds is not set.
const DefaultTimeout = 30 * time.Second

// Config is one server as configured, before ${VAR} expansion. It holds
// secrets once expanded, so it is never logged.
type Config struct {
	Name      string
	Transport Transport
	Source    Source
	// Command, Args, Env and Dir start a stdio server; Dir "" is the
	// workspace.
	Command string
	Args    []string
	Env     map[string]string
	Dir     string
	// URL and Headers reach an HTTP or SSE server.
	URL     string
	Headers map[string]string
	// Disabled is set by "enabled": false: the server is listed, never
	// started.
	Disabled bool
	// Tools filters the server's tools by their MCP names.
	Tools ToolFilter
	// Timeout bounds the start and each listing; 0 means DefaultTimeout.
	Timeout time.Duration
	// OAuth is the configured OAuth client of an HTTP server ("oauth":
	// {clientId, clientSecret?, scopes?}); nil registers one dynamically
	// when the server asks for a login.
	OAuth *oauth.ClientConfig
	// AllowSampling lets the server ask the current model for completions.
	AllowSampling bool
	// CallTimeout bounds a tools/call without progress (0:
	// DefaultCallTimeout).
	CallTimeout time.Duration
}

// ToolFilter is a server's "tools": {"allow": [...], "deny": [...]}. An
// empty Allow allows every tool; Deny wins over Allow.
type ToolFilter struct {
	Allow []string
	Deny  []string
}

// Admits reports whether the filter lets the tool named name through.
func (f ToolFilter) Admits(name string) bool {
	if slices.Contains(f.Deny, name) {
		return false
	}
	return len(f.Allow) == 0 || slices.Contains(f.Allow, name)
}

// timeout is the server's start and listing bound.
func (c Config) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

func (c Config) callTimeout() time.Duration {
	if c.CallTimeout > 0 {
		return c.CallTimeout
	}
	return DefaultCallTimeout
}

// Check says what is wrong with a configuration, in words for the user:
// a server needs a command or a URL matching its transport, and a name
// that fits in a tool name.
func (c Config) Check() error {
	if err := checkName(c.Name); err != nil {
		return err
	}
	switch c.Transport {
	case TransportStdio:
		if c.URL != "" || len(c.Headers) > 0 || c.OAuth != nil {
			return fmt.Errorf("\"url\", \"headers\" and \"oauth\" need \"type\": \"http\" or \"sse\"")
		}
		if c.Command == "" {
			return fmt.Errorf("\"command\" is required for a stdio server")
		}
	case TransportHTTP, TransportSSE:
		if c.URL == "" {
			return fmt.Errorf("\"url\" is required for a %s server", c.Transport)
		}
		if c.OAuth != nil && c.OAuth.ClientID == "" {
			return fmt.Errorf("\"oauth\" needs a \"clientId\" (leave \"oauth\" out to register one dynamically)")
		}
		if c.Command != "" || len(c.Args) > 0 || len(c.Env) > 0 || c.Dir != "" {
			return fmt.Errorf("\"command\", \"args\", \"env\" and \"cwd\" apply to stdio servers only")
		}
	default:
		return fmt.Errorf("unknown type %q (want stdio, http or sse)", c.Transport)
	}
	return nil
}

// checkName accepts the names that make tool names the providers take:
// letters, digits, '-' and '_', since the tool is mcp__<server>__<tool>.
func checkName(name string) error {
	if name == "" {
		return fmt.Errorf("a server needs a name")
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Errorf("server name %q: use letters, digits, '-' and '_' only", name)
		}
	}
	return nil
}
