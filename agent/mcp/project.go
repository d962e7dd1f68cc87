package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// ProjectFile is the name of a workspace's server file, as Claude Code
// reads it: {"mcpServers": {...}} in the workspace's root.
const ProjectFile = ".mcp.json"

// Project is a workspace's .mcp.json: its servers and what trusting it
// means.
type Project struct {
	// Path is the file's absolute path; Hash the SHA-256 of its contents,
	// in hex: a trust is for this path with these contents.
	Path string
	Hash string
	// Servers are its servers, in file order.
	Servers []Config
}

// HashOf is the hash a trust is keyed by.
func HashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Commands are what trusting the file would run or reach, one line per
// server, for the dialog that asks: the command line of each stdio server
// (unexpanded: its ${VAR}s as written), the URL of each HTTP one.
func (p *Project) Commands() []string {
	var out []string
	for _, c := range p.Servers {
		switch {
		case c.Disabled:
		case c.Transport == TransportStdio:
			out = append(out, c.Name+": "+strings.Join(append([]string{c.Command}, c.Args...), " "))
		default:
			out = append(out, c.Name+": "+c.URL)
		}
	}
	return out
}

// Project is the workspace file the manager was made with, nil when there
// is none.
func (m *Manager) Project() *Project { return m.project }

// ProjectTrusted reports whether the workspace file's servers may start
// (they are no longer untrusted).
func (m *Manager) ProjectTrusted() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.trusted
}

// StartProject starts the workspace file's servers once it is trusted (the
// caller recorded the trust: the runner's workspace trust): they leave
// StateUntrusted.
func (m *Manager) StartProject() {
	m.mu.Lock()
	m.trusted = true
	var start []*server
	for _, s := range m.servers {
		s.mu.Lock()
		if s.cfg.Source == SourceProject && s.state == StateUntrusted {
			s.state = StateStarting
			if err := s.cfg.Check(); err != nil {
				s.state, s.err = StateFailed, err.Error()
			}
			if s.state == StateStarting {
				start = append(start, s)
			}
		}
		s.mu.Unlock()
	}
	m.mu.Unlock()
	for _, s := range start {
		s.start(m.ctx)
	}
	m.notify()
}
