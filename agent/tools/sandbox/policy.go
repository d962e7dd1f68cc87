package sandbox

import (
	"fmt"
	"strings"
)

// Mode says where a sandboxed command may write.
type Mode int

// The modes; the zero value is Off.
const (
	// Off leaves writes unconfined: the command runs as it would without a
	// sandbox (unless Network is Deny).
	Off Mode = iota
	// WorkspaceWrite lets the command write the workspace, its temp
	// directory, the Policy's Writable paths and the harmless devices
	// (/dev/null and co). It reads everywhere.
	WorkspaceWrite
	// ReadOnly is WorkspaceWrite without the workspace.
	ReadOnly
)

var modeNames = []string{Off: "off", WorkspaceWrite: "workspace-write", ReadOnly: "read-only"}

// String is the mode's name in the config ("workspace-write").
func (m Mode) String() string {
	if m < 0 || int(m) >= len(modeNames) {
		return fmt.Sprintf("Mode(%d)", int(m))
	}
	return modeNames[m]
}

// ParseMode reads a mode by its config name; the error names the valid ones.
func ParseMode(s string) (Mode, error) {
	for m, name := range modeNames {
		if s == name {
			return Mode(m), nil
		}
	}
	return Off, fmt.Errorf("unknown sandbox mode %q (want %s)", s, strings.Join(modeNames, ", "))
}

// Network says whether a sandboxed command may use the network.
type Network int

// The network settings; the zero value is Allow.
const (
	// Allow leaves the network as it is.
	Allow Network = iota
	// Deny cuts the command off the network: a network namespace of its own
	// where the kernel lets steer make one (with only a loopback interface,
	// up, that nothing outside shares), else Landlock's TCP rules.
	Deny
)

var networkNames = []string{Allow: "allow", Deny: "deny"}

// String is the setting's name in the config ("deny").
func (n Network) String() string {
	if n < 0 || int(n) >= len(networkNames) {
		return fmt.Sprintf("Network(%d)", int(n))
	}
	return networkNames[n]
}

// ParseNetwork reads a network setting by its config name.
func ParseNetwork(s string) (Network, error) {
	for n, name := range networkNames {
		if s == name {
			return Network(n), nil
		}
	}
	return Allow, fmt.Errorf("unknown sandbox network %q (want %s)", s, strings.Join(networkNames, ", "))
}

// Policy is what the sandbox enforces on every command of one tool. The zero
// value is no sandbox at all: commands run exactly as they would without
// this package.
type Policy struct {
	Mode    Mode
	Network Network
	// Writable are more paths the command may write under WorkspaceWrite and
	// ReadOnly: absolute, "~/…" (the user's home) or relative to the
	// workspace. A directory is writable with everything below it. A path
	// that does not exist when the command starts is left out, which only
	// ever denies more.
	Writable []string
}

// Enabled reports whether p confines commands at all.
func (p Policy) Enabled() bool { return p.ConfinesWrites() || p.Network == Deny }

// ConfinesWrites reports whether p limits where commands write (and so
// gives them a temp directory of their own).
func (p Policy) ConfinesWrites() bool { return p.Mode == WorkspaceWrite || p.Mode == ReadOnly }
