package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// The values of tools.sandbox.mode.
const (
	SandboxOff            = "off"
	SandboxWorkspaceWrite = "workspace-write"
	SandboxReadOnly       = "read-only"
)

// The values of tools.sandbox.network.
const (
	NetworkAllow = "allow"
	NetworkDeny  = "deny"
)

// SandboxSettings are tools.sandbox, checked: the OS sandbox the bash
// tool's commands run in.
type SandboxSettings struct {
	// Mode is SandboxOff (the default), SandboxWorkspaceWrite or
	// SandboxReadOnly.
	Mode string
	// Network is NetworkAllow (the default) or NetworkDeny.
	Network string
	// Writable are the directories the config adds to what a sandboxed
	// command may write, absolute ("~/" expanded).
	Writable []string
}

var (
	sandboxModes    = []string{SandboxOff, SandboxWorkspaceWrite, SandboxReadOnly}
	sandboxNetworks = []string{NetworkAllow, NetworkDeny}
)

// sandbox checks tools.sandbox into c.Tools.Sandbox.
func (b *builder) sandbox(c *Config, fs fileSandbox) error {
	home, _ := os.UserHomeDir()
	s := SandboxSettings{Mode: SandboxOff, Network: NetworkAllow}
	if fs.Mode != "" {
		if !slices.Contains(sandboxModes, fs.Mode) {
			return b.errAt("tools.sandbox.mode", "unknown sandbox mode %q (want %s)", fs.Mode, oneOf(sandboxModes...))
		}
		s.Mode = fs.Mode
	}
	if fs.Network != "" {
		if !slices.Contains(sandboxNetworks, fs.Network) {
			return b.errAt("tools.sandbox.network", "unknown network setting %q (want %s)", fs.Network, oneOf(sandboxNetworks...))
		}
		s.Network = fs.Network
	}
	for i, w := range fs.Writable {
		path := indexPath("tools.sandbox.writable", i)
		switch {
		case len(w) > 2 && w[:2] == "~/" && home != "":
			w = filepath.Join(home, w[2:])
		case !filepath.IsAbs(w):
			return b.errAt(path, "want an absolute path or one starting with ~/, got %q", w)
		}
		s.Writable = append(s.Writable, filepath.Clean(w))
	}
	if s.Mode == SandboxOff && (s.Network == NetworkDeny || len(s.Writable) > 0) {
		return b.errAt("tools.sandbox", "network and writable need a sandbox: set mode to %q or %q", SandboxWorkspaceWrite, SandboxReadOnly)
	}
	c.Tools.Sandbox = s
	return nil
}

// String is the sandbox as one line, for messages.
func (s SandboxSettings) String() string {
	if s.Mode == "" || s.Mode == SandboxOff {
		return "off"
	}
	return fmt.Sprintf("%s, network %s", s.Mode, s.Network)
}
