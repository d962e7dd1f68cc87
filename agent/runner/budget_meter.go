package runner

import (
	"context"
	"errors"
	"sync"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/persistence"
)

// spendMeter keeps the account the budget is checked against: what the
// session spent (its saved total when the meter first sees it, plus the
// answers since) and what the run under way spent. Answers are charged on
// the request's own goroutine as they end, so the next request of the run
// is checked against them (the events reach subscribers later); a run is
// known by its lane task.
type spendMeter struct {
	// saved reads a session's saved total; a session not saved yet has
	// spent nothing.
	saved   func(ctx context.Context, sessionID string) (savedSpend, error)
	current func() string // the session the runtime holds

	mu        sync.Mutex
	limits    BudgetLimits
	sessionID string // whose total session holds; "" before the first check
	session   Spend
	runKey    any // the run whose account run is
	run       Spend
	// answers and outputTokens give the output estimate of a request: the
	// mean answer of the session so far.
	answers, outputTokens int
	noted                 bool // the run's unpriced note went out
	stop                  bool // the budget stopped the run
}

func newSpendMeter(store *persistence.Store, current func() string, limits BudgetLimits) *spendMeter {
	saved := func(ctx context.Context, id string) (savedSpend, error) {
		if store == nil {
			return savedSpend{}, nil
		}
		sp, err := store.SessionSpend(ctx, id)
		return savedSpend{Spend: Spend{USD: sp.Cost, Tokens: sp.InputTokens + sp.OutputTokens},
			answers: sp.Answers, outputTokens: sp.OutputTokens}, err
	}
	return &spendMeter{saved: saved, current: current, limits: limits}
}

// savedSpend is a session's saved total and the answers it counts.
type savedSpend struct {
	Spend
	answers, outputTokens int
}

// charge counts an answer of run runKey that cost u.
func (m *spendMeter) charge(runKey any, u agent.Usage) {
	spent := Spend{USD: u.Cost.Total, Tokens: u.TotalTokens()}
	m.mu.Lock()
	defer m.mu.Unlock()
	if runKey == m.runKey {
		m.run = m.run.plus(spent)
	}
	if m.sessionID == m.current() {
		m.session = m.session.plus(spent)
		m.answers++
		m.outputTokens += u.Output
	}
}

// sync loads the current session's saved total when the meter has not seen
// that session yet (the first check, a switch of session).
func (m *spendMeter) sync(ctx context.Context) error {
	id := m.current()
	m.mu.Lock()
	seen := m.sessionID == id
	m.mu.Unlock()
	if seen {
		return nil
	}
	base, err := m.saved(ctx, id)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sessionID, m.session, m.answers, m.outputTokens = id, base.Spend, base.answers, base.outputTokens
	return nil
}

// check is the budget's decision for a request of run runKey, of
// inputTokens to model:
// the stop when it would go over a limit, else the unpriced note when one
// is due this run (nil for none). An account that cannot be read stops
// nothing: the error is the caller's to log.
func (m *spendMeter) check(ctx context.Context, runKey any, model agent.Model, inputTokens int) (stop, note *BudgetInfo, err error) {
	if err := m.sync(ctx); err != nil {
		return nil, nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if runKey != m.runKey {
		m.runKey, m.run, m.noted, m.stop = runKey, Spend{}, false, false
	}
	limits := m.limits
	if !limits.hasUSD() && !limits.hasTokens() {
		return nil, nil, nil
	}
	output := 0
	if m.answers > 0 {
		output = m.outputTokens / m.answers
	}
	c := budgetCheck{limits: limits, session: m.session, run: m.run, model: model,
		estimate: estimateRequest(model, inputTokens, output)}
	if info, over := overBudget(c); over {
		m.stop = true
		return &info, nil, nil
	}
	if info, due := unpricedNote(limits, model); due && !m.noted {
		m.noted = true
		return nil, &info, nil
	}
	return nil, nil, nil
}

// stopped reports whether the budget stopped run runKey.
func (m *spendMeter) stopped(runKey any) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stop && runKey == m.runKey
}

// setLimits replaces the caps.
func (m *spendMeter) setLimits(l BudgetLimits) {
	m.mu.Lock()
	m.limits = l
	m.mu.Unlock()
}

// status is the caps and the account as it stands, for model. The
// session's total is the one last loaded and counted on from.
func (m *spendMeter) status(ctx context.Context, model agent.Model) (BudgetStatus, error) {
	if err := m.sync(ctx); err != nil {
		return BudgetStatus{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return BudgetStatus{Limits: m.limits, Session: m.session, Run: m.run, Priced: priced(model)}, nil
}

// spendCharge counts the answer of a request that ended with final.
func (r *Runtime) spendCharge(final agent.AssistantEvent) {
	r.spend.charge(r.lane.held(), final.Partial.Usage)
}

// spendAllows is the budget's gate before a request: a stop ends the
// request as failed with the budget's message (no provider saw it, so no
// ledger does either); the unpriced note goes out and the request goes on.
// An account that cannot be read is logged and stops nothing.
func (r *Runtime) spendAllows(ctx context.Context, m agent.Model, inputTokens int, out *agent.AssistantStream) bool {
	stop, note, err := r.spend.check(ctx, r.lane.held(), m, inputTokens)
	switch {
	case err != nil:
		r.log.Warn("the budget could not be checked", "session", r.SessionID(), "err", err)
	case stop != nil:
		annotate(ctx, out, AnnotationBudget, *stop)
		out.Push(context.Background(), failedEvent(m, stop.Message, r.opts.Now()))
		return false
	case note != nil:
		annotate(ctx, out, AnnotationBudget, *note)
	}
	return true
}

// Budget is the spend caps and what was spent against them.
func (r *Runtime) Budget(ctx context.Context) (BudgetStatus, error) {
	return r.spend.status(ctx, r.agent.State().Model)
}

// SetBudget replaces the spend caps of this runtime's sessions (/budget,
// rpc set_budget); a negative limit is refused.
func (r *Runtime) SetBudget(l BudgetLimits) error {
	if l.SessionUSD < 0 || l.RunUSD < 0 || l.SessionTokens < 0 || l.RunTokens < 0 {
		return errors.New("a budget must not be negative")
	}
	r.spend.setLimits(l)
	return nil
}
