package mcp

import (
	"context"
	"fmt"
	"sync"
)

// Manager runs the configured servers of one process (see the package
// doc). Its methods are safe for concurrent use.
type Manager struct {
	o       *Options
	ctx     context.Context
	cancel  context.CancelFunc
	project *Project

	mu        sync.Mutex
	servers   []*server // in configuration order: steer's config, then the project's
	listeners map[int]func()
	nextID    int
	trusted   bool // the project's servers may start
}

// New makes a manager of servers (steer's configuration) and of project,
// the workspace's .mcp.json (nil when there is none); the project's
// servers start only when trusted is set (see Trust). Nothing starts
// before Start. A server whose configuration is wrong is listed as failed
// with the reason.
func New(servers []Config, project *Project, trusted bool, o *Options) *Manager {
	if o == nil {
		o = &Options{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{o: o, ctx: ctx, cancel: cancel, project: project, listeners: map[int]func(){}, trusted: trusted}
	for _, c := range servers {
		c.Source = SourceConfig
		m.add(c, true)
	}
	if project != nil {
		for _, c := range project.Servers {
			c.Source = SourceProject
			if m.has(c.Name) { // steer's own configuration wins, as in Claude Code
				continue
			}
			m.add(c, trusted)
		}
	}
	return m
}

func (m *Manager) has(name string) bool {
	for _, s := range m.servers {
		if s.cfg.Name == name {
			return true
		}
	}
	return false
}

// add lists a server in its initial state.
func (m *Manager) add(c Config, trusted bool) {
	initial := StateStarting
	var err error
	switch {
	case c.Disabled:
		initial = StateDisabled
	case !trusted:
		initial = StateUntrusted
	default:
		if err = c.Check(); err != nil {
			initial = StateFailed
		}
	}
	s := newServer(c, m.o, m.notify, initial)
	if err != nil {
		s.err = err.Error()
	}
	m.servers = append(m.servers, s)
}

// Start starts every server that may start, each on its own goroutine,
// and returns at once.
func (m *Manager) Start() {
	m.mu.Lock()
	servers := append([]*server(nil), m.servers...)
	m.mu.Unlock()
	for _, s := range servers {
		if s.status().State == StateStarting {
			s.start(m.ctx)
		}
	}
}

// Settled waits until every server is ready or has failed (each bounded
// by its timeout), or ctx ends.
func (m *Manager) Settled(ctx context.Context) error {
	m.mu.Lock()
	servers := append([]*server(nil), m.servers...)
	m.mu.Unlock()
	for _, s := range servers {
		select {
		case <-s.settledCh:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Servers are the servers' statuses, in configuration order.
func (m *Manager) Servers() []Status {
	m.mu.Lock()
	servers := append([]*server(nil), m.servers...)
	m.mu.Unlock()
	out := make([]Status, len(servers))
	for i, s := range servers {
		out[i] = s.status()
	}
	return out
}

// server finds a server by name.
func (m *Manager) server(name string) (*server, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.servers {
		if s.cfg.Name == name {
			return s, nil
		}
	}
	return nil, fmt.Errorf("no mcp server named %q", name)
}

// Restart starts a failed server again (its restart count back at 0), or
// reconnects one that is running. Disabled and untrusted servers do not
// start.
func (m *Manager) Restart(name string) error {
	s, err := m.server(name)
	if err != nil {
		return err
	}
	switch st := s.status().State; st {
	case StateDisabled, StateUntrusted:
		return fmt.Errorf("mcp server %s is %s", name, st)
	}
	s.restart(m.ctx)
	return nil
}

// Subscribe calls fn, on some goroutine, after each change of a server's
// state or lists (the tools to offer changed).
func (m *Manager) Subscribe(fn func()) (unsubscribe func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	id := m.nextID
	m.nextID++
	m.listeners[id] = fn
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		delete(m.listeners, id)
	}
}

func (m *Manager) notify() {
	m.mu.Lock()
	fns := make([]func(), 0, len(m.listeners))
	for _, fn := range m.listeners {
		fns = append(fns, fn)
	}
	m.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// SetElicitor makes fn answer the servers' elicitations from now on; nil
// declines them (the default).
func (m *Manager) SetElicitor(fn Elicitor) {
	m.o.mu.Lock()
	defer m.o.mu.Unlock()
	m.o.elicit = fn
}

// Close ends every server: sessions closed (DELETE for streamable HTTP),
// children's process groups killed. It returns when all are closed.
func (m *Manager) Close() {
	m.cancel()
	m.mu.Lock()
	servers := append([]*server(nil), m.servers...)
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Go(s.close)
	}
	wg.Wait()
}
