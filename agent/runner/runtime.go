package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent"
)

// Options configure a Runtime. Providers is required.
type Options struct {
	Providers []Provider
	// Model is the reference to start with (see ResolveModel).
	Model        string
	Tools        []agent.Tool
	SystemPrompt string
	Workspace    string
	Thinking     agent.ThinkingLevel
	SteeringMode agent.QueueMode
	FollowUpMode agent.QueueMode
	Logger       *slog.Logger
	// Now defaults to time.Now.
	Now func() time.Time
}

// State is what a UI shows about the runtime.
type State struct {
	agent.State
	SessionID string
	Workspace string
}

// Runtime is one session's runtime: the facade over its Agent.
type Runtime struct {
	opts  Options
	tools *agent.ToolSet
	agent *agent.Agent
	log   *slog.Logger

	mu        sync.Mutex
	sessionID string
}

// New resolves the model and builds the runtime; its errors are
// configuration errors worded for the user.
func New(opts Options) (*Runtime, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	model, err := ResolveModel(opts.Providers, opts.Model)
	if err != nil {
		return nil, err
	}
	tools, err := agent.NewToolSet(opts.Tools...)
	if err != nil {
		return nil, err
	}
	r := &Runtime{opts: opts, tools: tools, log: opts.Logger}
	r.agent = agent.New(agent.Config{
		Model: model, Stream: r.streamFor(model), SystemPrompt: opts.SystemPrompt,
		Tools: tools, Thinking: opts.Thinking, SteeringMode: opts.SteeringMode,
		FollowUpMode: opts.FollowUpMode, Now: opts.Now,
	})
	r.sessionID = newSessionID()
	r.agent.Subscribe(r.logEvent)
	return r, nil
}

func newSessionID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "s_" + hex.EncodeToString(b[:])
}

func (r *Runtime) streamFor(m agent.Model) agent.StreamFn {
	for _, p := range r.opts.Providers {
		if p.Name == m.Provider {
			return p.Stream
		}
	}
	return nil
}

// logEvent records the run's milestones (never deltas) in the log.
func (r *Runtime) logEvent(ev agent.Event) {
	switch e := ev.(type) {
	case agent.AgentStart:
		r.log.Info("run started", "session", r.SessionID())
	case agent.AgentEnd:
		r.log.Info("run ended", "session", r.SessionID(), "messages", len(e.Messages))
	case agent.MessageEnd:
		if e.Message.StopReason == agent.StopReasonError {
			r.log.Warn("response failed", "session", r.SessionID(), "error", e.Message.ErrorMessage)
		}
	case agent.ToolExecutionEnd:
		r.log.Info("tool finished", "session", r.SessionID(), "tool", e.ToolName, "error", e.IsError)
	}
}

// SessionID names the current session.
func (r *Runtime) SessionID() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sessionID
}

// Workspace is the directory the tools work in.
func (r *Runtime) Workspace() string { return r.opts.Workspace }

// Subscribe adds a subscriber to the session's events (see agent.Subscriber).
func (r *Runtime) Subscribe(fn agent.Subscriber) (unsubscribe func()) { return r.agent.Subscribe(fn) }

// Prompt starts a run; it fails with agent.ErrBusy while one is active.
func (r *Runtime) Prompt(text string, images ...agent.Content) error {
	return r.agent.Prompt(text, images...)
}

// Steer queues steering while a run is active, else starts a run with it.
func (r *Runtime) Steer(text string, images ...agent.Content) (agent.QueueItem, bool) {
	return r.agent.Deliver(agent.QueueItem{Kind: agent.QueueSteer, Text: text, Images: images})
}

// FollowUp queues a follow-up while a run is active, else starts a run with it.
func (r *Runtime) FollowUp(text string, images ...agent.Content) (agent.QueueItem, bool) {
	return r.agent.Deliver(agent.QueueItem{Kind: agent.QueueFollowUp, Text: text, Images: images})
}

// Dequeue takes queued items back: the one with id, or all when id is empty.
func (r *Runtime) Dequeue(id string) ([]agent.QueueItem, error) {
	if id == "" {
		return r.agent.ClearQueues(), nil
	}
	it, ok := r.agent.Dequeue(id)
	if !ok {
		return nil, fmt.Errorf("no queued item %q", id)
	}
	return []agent.QueueItem{it}, nil
}

// Abort aborts the active run, if any.
func (r *Runtime) Abort() { r.agent.Abort() }

// WaitForIdle waits until no run is active.
func (r *Runtime) WaitForIdle(ctx context.Context) error { return r.agent.WaitForIdle(ctx) }

// State returns a snapshot.
func (r *Runtime) State() State {
	return State{State: r.agent.State(), SessionID: r.SessionID(), Workspace: r.opts.Workspace}
}

// Models lists every configured model.
func (r *Runtime) Models() []agent.Model {
	var all []agent.Model
	for _, p := range r.opts.Providers {
		all = append(all, p.Models...)
	}
	return all
}

// SetModel switches to the model ref names from the next request on.
func (r *Runtime) SetModel(ref string) (agent.Model, error) {
	m, err := ResolveModel(r.opts.Providers, ref)
	if err != nil {
		return agent.Model{}, err
	}
	r.agent.SetModel(m, r.streamFor(m))
	return m, nil
}

// SetThinking sets the thinking level.
func (r *Runtime) SetThinking(l agent.ThinkingLevel) { r.agent.SetThinking(l) }

// SetSteeringMode sets how many steering items a drain point takes.
func (r *Runtime) SetSteeringMode(m agent.QueueMode) { r.agent.SetSteeringMode(m) }

// SetFollowUpMode sets how many follow-ups a drain point takes.
func (r *Runtime) SetFollowUpMode(m agent.QueueMode) { r.agent.SetFollowUpMode(m) }

// NewSession starts an empty session; it fails while a run is active.
// Queued items do not follow into the new session.
func (r *Runtime) NewSession() error {
	if _, err := r.agent.Reset(nil); err != nil {
		return err
	}
	r.mu.Lock()
	r.sessionID = newSessionID()
	r.mu.Unlock()
	return nil
}
