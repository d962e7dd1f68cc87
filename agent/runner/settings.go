package runner

import (
	"context"
	"log/slog"
	"sync"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/persistence"
)

// settings are the session's choices of how it runs: its model (and the
// thinking level that follows the model), the queue modes and the auth
// profile it prefers or is locked to. It calls the agent's setters, the
// catalogue, the thinking and profile choices and, to save the model with
// the session, the store through the write side; current says which session
// is current and whether it has a row yet.
type settings struct {
	providers []Provider
	resolve   func(ref string) (agent.Model, error)
	catalog   *catalog
	// attempt is the attempt loop every model's requests go through.
	attempt agent.StreamFn
	store   *persistence.Store
	writes  *writes
	log     *slog.Logger
	current func() (id string, created bool)

	// Set once the agent exists (New).
	agent    *agent.Agent
	thinking *thinkingChoice
	choice   *profileChoice

	// modelMu serialises the changes of the agent's model, so that a
	// listing's refill never puts back a model the user just left.
	modelMu sync.Mutex
}

// setModel makes m the agent's model from the next request on.
func (s *settings) setModel(m agent.Model) {
	s.modelMu.Lock()
	defer s.modelMu.Unlock()
	s.agent.SetModel(m, s.streamFor(m))
}

// refill gives the agent's model what fill adds to it (what its server
// now lists of it), when that changes anything.
func (s *settings) refill(fill func(agent.Model) (agent.Model, bool)) {
	s.modelMu.Lock()
	defer s.modelMu.Unlock()
	if m, changed := fill(s.agent.State().Model); changed {
		s.agent.SetModel(m, s.streamFor(m))
	}
}

// streamFor is the StreamFn the Agent uses for m: the attempt loop over m's
// profiles and the fallback chain; nil when no provider serves m.
func (s *settings) streamFor(m agent.Model) agent.StreamFn {
	if s.streamOf(m) == nil {
		return nil
	}
	return s.attempt
}

// streamOf is the stream of the provider that serves m.
func (s *settings) streamOf(m agent.Model) agent.StreamFn {
	for _, p := range s.providers {
		if p.Name == m.Provider {
			return p.Stream
		}
	}
	return nil
}

// SetModel switches to the model ref names from the next request on.
func (s *settings) SetModel(ctx context.Context, ref string) (agent.Model, error) {
	m, err := s.resolve(ref)
	if err != nil {
		return agent.Model{}, err
	}
	if err := s.catalog.unusable(m); err != nil {
		return agent.Model{}, err
	}
	s.setModel(m)
	s.thinking.follow(m)
	if s.store != nil {
		if id, created := s.current(); created {
			ctx, done := scoped(ctx, s.writes.ctx)
			defer done()
			s.writes.saved("saving the session's model", s.store.SetSessionModel(ctx, id, m.Ref()))
			_, err := s.store.AppendMarker(ctx, id, persistence.EntryModelChange, persistence.Marker{Model: m.Ref()})
			s.writes.saved("recording the change of model", err)
		}
	}
	return m, nil
}

// SetSteeringMode sets how many steering items a drain point takes.
func (s *settings) SetSteeringMode(m agent.QueueMode) { s.agent.SetSteeringMode(m) }

// SetFollowUpMode sets how many follow-ups a drain point takes.
func (s *settings) SetFollowUpMode(m agent.QueueMode) { s.agent.SetFollowUpMode(m) }

// SetThinking sets the thinking level the session chose: it outlasts a
// change of model (a session that chose none follows each model's
// default).
// The change is recorded in the session's tree.
func (s *settings) SetThinking(l agent.ThinkingLevel) {
	was := s.agent.State().Thinking
	s.thinking.choose(l)
	if s.store == nil || was == s.agent.State().Thinking {
		return
	}
	if id, created := s.current(); created {
		_, err := s.store.AppendMarker(s.writes.ctx, id, persistence.EntryThinkingChange, persistence.Marker{Thinking: string(l)})
		s.writes.saved("recording the change of thinking level", err)
	}
}

// ModelProblem says why m cannot be chosen ("ANTHROPIC_API_KEY is not set"),
// or "" when it can: pickers mark such models.
func (s *settings) ModelProblem(m agent.Model) string { return s.catalog.problem(m) }

// adoptSavedModel switches to the model a session was saved with, unless it
// cannot be resolved or used now (its key is no longer set): then the
// current model stays, and the log says why.
func (s *settings) adoptSavedModel(sessionID, ref string) {
	if ref == "" {
		return
	}
	m, err := s.resolve(ref)
	if err == nil {
		err = s.catalog.unusable(m)
	}
	if err != nil {
		s.log.Warn("keeping the current model instead of the session's", "session", sessionID, "model", ref, "error", err)
		return
	}
	s.setModel(m)
	s.thinking.follow(m)
}

// PreferProfile makes id the session's preferred profile, tried first while
// it is eligible; "" prefers none. id must be configured. The choice holds
// in this process even when saving it fails (the error says so).
func (s *settings) PreferProfile(ctx context.Context, id string) error {
	return s.choice.prefer(ctx, id)
}

// LockProfile locks the session to profile id, the only one its requests
// use from the next attempt on; "" unlocks it. id must be configured. The
// choice holds in this process even when saving it fails.
func (s *settings) LockProfile(ctx context.Context, id string) error {
	return s.choice.lock(ctx, id)
}

// ProfileChoice returns the session's preferred and locked profiles ("" for
// none).
func (s *settings) ProfileChoice() (preferred, locked string) { return s.choice.get() }
