package scripted

import (
	"path"
	"slices"
	"sync"

	"github.com/steer-tui/steer/agent"
)

// request is what a step's When is matched against.
type request struct {
	model         agent.Model
	profile       string
	contextTokens int
}

// player hands out a scenario's steps, one per request: a request takes the
// first step that is not used up and whose When matches; a step without
// Always is used up by the request that takes it. When no step is left, the
// scenario's Then decides. It is safe for concurrent use.
type player struct {
	mu       sync.Mutex
	scenario *Scenario
	used     []bool
}

func newPlayer(sc *Scenario) *player {
	if sc == nil {
		return nil
	}
	own := *sc // the caller may reuse its scenario
	own.Steps = slices.Clone(sc.Steps)
	return &player{scenario: &own, used: make([]bool, len(own.Steps))}
}

// next returns the step for req and its 1-based position, or nil when the
// request gets the default behaviour. A nil player always returns nil.
func (p *player) next(req request) (*Step, int) {
	if p == nil {
		return nil, 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	steps := p.scenario.Steps
	for i := range steps {
		s := &steps[i]
		if p.used[i] || !s.When.matches(req) {
			continue
		}
		if !s.Always {
			p.used[i] = true
		}
		return s, i + 1
	}
	if p.scenario.Then == ThenRepeat && len(steps) > 0 {
		return &steps[len(steps)-1], len(steps)
	}
	return nil, 0
}

// matches reports whether every condition set in w holds for req; a nil
// When matches every request.
func (w *When) matches(req request) bool {
	if w == nil {
		return true
	}
	if w.Profile != "" && !glob(w.Profile, req.profile) {
		return false
	}
	if w.Model != "" && !glob(w.Model, req.model.ID) && !glob(w.Model, req.model.Ref()) {
		return false
	}
	return req.contextTokens >= w.MinContextTokens
}

func glob(pattern, s string) bool {
	ok, err := path.Match(pattern, s)
	return err == nil && ok
}
