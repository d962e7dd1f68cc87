package lsp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent/childproc"
)

// Options configure a Manager.
type Options struct {
	// Workspace is the directory the servers are rooted at and run in.
	Workspace string
	// Servers are the language servers, as Resolve gives them.
	Servers []Config
	// Env is the environment the servers inherit (each Config.Env is
	// added to it); nil gives them none.
	Env []string
	// Logger gets the servers' starts and failures (nil: discarded).
	Logger *slog.Logger
	// StartTimeout, PublishWait and RequestTimeout replace the bounds of
	// the same names when set (tests).
	StartTimeout, PublishWait, RequestTimeout time.Duration
}

// Manager is a process's language servers. It starts nothing when made: a
// server starts for the first file of its filetypes. Its methods are safe
// for concurrent use and never wait on a server past the bounds (see
// package doc).
type Manager struct {
	workspace string
	servers   []*server
	closeOnce sync.Once
}

// New makes the Manager of o's servers; none starts yet.
func New(o Options) *Manager {
	t := timing{start: cmp.Or(o.StartTimeout, StartTimeout), publish: cmp.Or(o.PublishWait, PublishWait),
		request: cmp.Or(o.RequestTimeout, RequestTimeout)}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := &Manager{workspace: o.Workspace}
	for _, c := range o.Servers {
		m.servers = append(m.servers, newServer(c, o.Workspace, o.Env, t, log))
	}
	return m
}

// serverFor is the enabled server whose filetypes hold path's extension,
// nil when there is none or path is outside the workspace (the servers
// are rooted there: of a file elsewhere they know nothing, and would make
// the tools wait for nothing).
func (m *Manager) serverFor(path string) *server {
	ext := strings.TrimPrefix(filepath.Ext(path), ".")
	if m == nil || ext == "" || m.rel(path) == path {
		return nil
	}
	for _, s := range m.servers {
		if !s.cfg.Disabled && slices.Contains(s.cfg.Filetypes, ext) {
			return s
		}
	}
	return nil
}

// rel is path as results show it: relative to the workspace when inside
// (path itself otherwise).
func (m *Manager) rel(path string) string {
	if r, err := filepath.Rel(m.workspace, path); err == nil && filepath.IsLocal(r) {
		return r
	}
	return path
}

// AfterWrite tells the server of path's language that the file now holds
// content (saved), and returns what it published for it, as a tool
// result's paragraph: "" when no server handles the file.
func (m *Manager) AfterWrite(ctx context.Context, path, content string) string {
	s := m.serverFor(path)
	if s == nil {
		return ""
	}
	return s.sync(ctx, path, content, true).Text(MaxShown, m.rel)
}

// Warm starts the server of path's language in the background if it has
// not started (a read of the file: an edit may follow); it never waits.
func (m *Manager) Warm(path string) {
	s := m.serverFor(path)
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == StateNotStarted && !s.closed {
		s.startLocked()
	}
}

// Diagnostics is the diagnostics tool's answer: path's (absolute), opened
// with its server if it was not, or, for "", every file's that the
// servers have published, errors first, at most MaxShown.
func (m *Manager) Diagnostics(ctx context.Context, path string) (string, error) {
	if path == "" {
		return m.all(), nil
	}
	s := m.serverFor(path)
	if s == nil {
		return "", fmt.Errorf("no language server handles %s files (%s)", extOf(path), m.handled())
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return s.sync(ctx, path, string(raw), false).Text(MaxShown, m.rel), nil
}

func extOf(path string) string {
	if ext := filepath.Ext(path); ext != "" {
		return ext
	}
	return filepath.Base(path) + "'s"
}

// handled says which filetypes have servers.
func (m *Manager) handled() string {
	var parts []string
	for _, s := range m.servers {
		if !s.cfg.Disabled {
			parts = append(parts, s.name()+": ."+strings.Join(s.cfg.Filetypes, " ."))
		}
	}
	if len(parts) == 0 {
		return "none is configured or found on PATH: lsp in the config"
	}
	return strings.Join(parts, "; ")
}

// all lists what every server has published, errors first.
func (m *Manager) all() string {
	var ds []Diagnostic
	var states []string
	for _, s := range m.servers {
		s.mu.Lock()
		for _, p := range s.published {
			ds = append(ds, p.diags...)
		}
		state := s.state
		s.mu.Unlock()
		if state != StateDisabled {
			states = append(states, s.name()+" "+string(state))
		}
	}
	switch {
	case len(states) == 0:
		return "no language server: " + m.handled()
	case len(ds) == 0:
		return "no diagnostics published (" + strings.Join(states, ", ") + ")"
	}
	return fmt.Sprintf("%s published (%s):\n%s", CountOf(ds), strings.Join(states, ", "), List(ds, MaxShown, m.rel))
}

// Status is one server as the /lsp inspector shows it.
type Status struct {
	Language  string   `json:"language"`
	Command   string   `json:"command"`
	Args      []string `json:"args"`
	Filetypes []string `json:"filetypes"`
	// Detected says it was found on PATH, not configured.
	Detected bool  `json:"detected"`
	State    State `json:"state"`
	// Reason is why it failed; Stderr its last stderr lines.
	Reason string   `json:"reason,omitempty"`
	Stderr []string `json:"stderr,omitempty"`
	// PID is its process while it runs (0 otherwise).
	PID int `json:"pid,omitempty"`
	// OpenFiles counts the files steer opened with it; Diagnostics what it
	// has published, over every file.
	OpenFiles   int    `json:"openFiles"`
	Diagnostics Counts `json:"diagnostics"`
}

// Servers are the servers' states, in configuration order.
func (m *Manager) Servers() []Status {
	if m == nil {
		return nil
	}
	out := make([]Status, 0, len(m.servers))
	for _, s := range m.servers {
		s.mu.Lock()
		st := Status{Language: s.cfg.Language, Command: s.cfg.Command, Args: s.cfg.Args, Filetypes: s.cfg.Filetypes,
			Detected: s.cfg.Detected, State: s.state, Reason: s.reason, PID: s.pid, OpenFiles: len(s.open)}
		stderr := s.stderr
		var ds []Diagnostic
		for _, p := range s.published {
			ds = append(ds, p.diags...)
		}
		s.mu.Unlock()
		st.Diagnostics = CountOf(ds)
		if st.State == StateFailed {
			st.Stderr = stderr.Last(childproc.TailLines)
		}
		out = append(out, st)
	}
	return out
}

// ErrUnknownServer is Restart's error for a language no server has.
var ErrUnknownServer = errors.New("no such language server")

// Restart stops the server of language and starts it again, whatever its
// state (a failed server stays failed until this).
func (m *Manager) Restart(language string) error {
	i := slices.IndexFunc(m.servers, func(s *server) bool { return s.cfg.Language == language })
	if i < 0 {
		return fmt.Errorf("%w: %q", ErrUnknownServer, language)
	}
	s := m.servers[i]
	if s.cfg.Disabled {
		return fmt.Errorf("lsp.%s is disabled in the config", language)
	}
	if s.closing() {
		return errClosing
	}
	s.stop(false)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.startLocked()
	}
	return nil
}

// Close shuts every running server down, in parallel, each bounded by the
// request timeout; later calls do nothing.
func (m *Manager) Close() {
	if m == nil {
		return
	}
	m.closeOnce.Do(func() {
		var wg sync.WaitGroup
		for _, s := range m.servers {
			wg.Go(func() { s.stop(true) })
		}
		wg.Wait()
	})
}
