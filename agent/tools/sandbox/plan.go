package sandbox

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// The Landlock ABI versions the policies need.
const (
	// writeABI is the first ABI that confines every way of writing a file
	// that Landlock knows: ABI 1 cannot stop truncate(2), and denies moving
	// a file between two writable directories.
	writeABI = 3
	// tcpABI is the first ABI with TCP rules.
	tcpABI = 4
)

// devices are the device files every confined command may write: they
// discard, produce or report, and change nothing. They are left out where
// missing. A command's own stdout and stderr (/dev/stdout, /proc/self/fd/N)
// are pipes, which Landlock never confines.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// Scope is where one command runs and may write, besides what its Policy
// says. Paths are absolute.
type Scope struct {
	// Workspace is the directory the command runs in; it is writable under
	// WorkspaceWrite.
	Workspace string
	// TempDir is the tool's own temporary directory, writable whenever
	// writes are confined; TMPDIR points at it.
	TempDir string
	// Extra are paths writable for this one command (the bash tool's
	// allowWrite, approved by the user). Each must exist.
	Extra []string
	// Home is the user's home directory, for Writable paths written "~/…";
	// "" leaves them out.
	Home string
}

// setup is how one command is confined: what the parent arranges when it
// starts the child and what the child applies before it runs the program.
// It is sent to the child as JSON.
type setup struct {
	// NetNS puts the child in a user and network namespace of its own; the
	// child brings its loopback up and checks that its network namespace is
	// not HostNetNS, the parent's.
	NetNS     bool   `json:"netns,omitempty"`
	HostNetNS uint64 `json:"hostNetns,omitempty"`
	// ConfineWrites makes Landlock deny every write outside Writable and
	// Optional; a path of Writable must exist, one of Optional may not.
	ConfineWrites bool     `json:"confineWrites,omitempty"`
	Writable      []string `json:"writable,omitempty"`
	Optional      []string `json:"optional,omitempty"`
	// DenyTCP makes Landlock deny TCP connect and bind.
	DenyTCP bool `json:"denyTCP,omitempty"`
	// ErrFD is the child's descriptor for reporting why it could not run
	// the program; Program is the program's absolute path.
	ErrFD   int    `json:"errFD"`
	Program string `json:"program"`
}

// usesLandlock reports whether the child must create a Landlock domain.
func (s setup) usesLandlock() bool { return s.ConfineWrites || s.DenyTCP }

// ErrUnenforceable is what Command's and Check's errors wrap when this
// kernel cannot enforce the policy.
var ErrUnenforceable = errors.New("the sandbox cannot be enforced")

// plan decides how to confine one command under p with what the kernel
// offers, or says why it cannot: it never drops a part of the policy. The
// paths of sc must be absolute and resolved.
func plan(s Support, p Policy, sc Scope) (setup, error) {
	var st setup
	if p.ConfinesWrites() {
		if err := s.writesProblem(); err != "" {
			return setup{}, fmt.Errorf("%w: %s", ErrUnenforceable, err)
		}
		st.ConfineWrites = true
		st.Writable, st.Optional = writable(p, sc)
	}
	if p.Network == Deny {
		switch {
		case s.NetNamespace:
			st.NetNS = true
		case s.LandlockABI >= tcpABI:
			st.DenyTCP = true
		default:
			return setup{}, fmt.Errorf("%w: %s", ErrUnenforceable, s.networkProblem())
		}
	}
	return st, nil
}

// writable lists what a confined command may write: the paths that must
// exist (workspace, temp, this call's extra paths) and those that may not
// (devices, the policy's Writable).
func writable(p Policy, sc Scope) (required, optional []string) {
	if p.Mode == WorkspaceWrite {
		required = append(required, sc.Workspace)
	}
	required = append(required, sc.TempDir)
	required = append(required, sc.Extra...)
	optional = append(optional, devices...)
	for _, w := range p.Writable {
		if abs := resolvePath(w, sc); abs != "" {
			optional = append(optional, abs)
		}
	}
	return required, optional
}

// resolvePath makes a Writable entry absolute: "~/x" is under sc.Home, a
// relative path under the workspace. It is "" for "~/x" without a home.
func resolvePath(p string, sc Scope) string {
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		if sc.Home == "" {
			return ""
		}
		return filepath.Join(sc.Home, strings.TrimPrefix(p, "~"))
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	default:
		return filepath.Join(sc.Workspace, p)
	}
}

// writesProblem is why this kernel cannot confine writes, "" when it can.
func (s Support) writesProblem() string {
	switch {
	case s.LandlockABI == 0 && s.LandlockNote != "":
		return "this kernel has no Landlock (" + s.LandlockNote + ")"
	case s.LandlockABI == 0:
		return "this kernel has no Landlock"
	case s.LandlockABI < writeABI:
		return fmt.Sprintf("this kernel's Landlock ABI %d cannot confine truncation (ABI %d can)", s.LandlockABI, writeABI)
	}
	return ""
}

// networkProblem is why this kernel cannot deny the network.
func (s Support) networkProblem() string {
	ns := "no network namespace"
	if s.NetNamespaceNote != "" {
		ns += " (" + s.NetNamespaceNote + ")"
	}
	if s.LandlockABI == 0 {
		return ns + " and no Landlock to deny TCP"
	}
	return fmt.Sprintf("%s and Landlock ABI %d has no TCP rules (ABI %d has)", ns, s.LandlockABI, tcpABI)
}

// Check reports whether this kernel can enforce p; the error says why not.
// Command refuses to run anything under a policy that fails it.
func (s Support) Check(p Policy) error {
	_, err := plan(s, p, Scope{})
	return err
}
