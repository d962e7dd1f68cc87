package runner

import (
	"fmt"

	"github.com/steer-tui/steer/agent"
)

// The spend cap (issue 33): limits on what a session and a run may spend,
// in US dollars at the catalogue's prices or in tokens. Before each request
// the runner adds the request's estimated cost to what was spent and stops
// the run, with a `budget` event, when that would go over a limit. The
// decision is overBudget, a pure function; spendMeter (budget_meter.go)
// keeps the account.

// AnnotationBudget is the `budget` event: a request was not made because it
// would go over a limit (Stopped), or the model is unpriced and its dollar
// limits cannot be checked (a note, once per run).
const AnnotationBudget = "budget"

// RunEndBudget is the run_end reason of a run the budget stopped.
const RunEndBudget = "budget"

// Spend is what was spent, or what a request is estimated to cost.
type Spend struct {
	USD    float64 `json:"usd"`
	Tokens int     `json:"tokens"`
}

func (s Spend) plus(o Spend) Spend { return Spend{USD: s.USD + o.USD, Tokens: s.Tokens + o.Tokens} }

// BudgetLimits are the spend caps; a zero field is no cap. Session counts
// everything the session's answers cost, in every process and run; Run
// counts the run under way.
type BudgetLimits struct {
	SessionUSD    float64 `json:"session,omitempty"`
	RunUSD        float64 `json:"run,omitempty"`
	SessionTokens int     `json:"sessionTokens,omitempty"`
	RunTokens     int     `json:"runTokens,omitempty"`
}

// hasUSD reports whether a dollar cap is set.
func (l BudgetLimits) hasUSD() bool { return l.SessionUSD > 0 || l.RunUSD > 0 }

// hasTokens reports whether a token cap is set.
func (l BudgetLimits) hasTokens() bool { return l.SessionTokens > 0 || l.RunTokens > 0 }

// BudgetScope is which limit a budget event is about.
type BudgetScope string

// The scopes.
const (
	BudgetSession BudgetScope = "session"
	BudgetRun     BudgetScope = "run"
)

// BudgetUnit is what a limit counts.
type BudgetUnit string

// The units.
const (
	BudgetUSD    BudgetUnit = "usd"
	BudgetTokens BudgetUnit = "tokens"
)

// BudgetInfo is the `budget` event's data.
type BudgetInfo struct {
	// Stopped: the request was not made. Otherwise the event is the
	// unpriced model's note.
	Stopped bool        `json:"stopped"`
	Scope   BudgetScope `json:"scope,omitempty"`
	Unit    BudgetUnit  `json:"unit,omitempty"`
	// Limit, Spent and Estimate are in Unit: the cap, what its scope spent
	// before the request, and the request's estimated cost.
	Limit    float64 `json:"limit,omitempty"`
	Spent    float64 `json:"spent,omitempty"`
	Estimate float64 `json:"estimate,omitempty"`
	Model    string  `json:"model"`
	Message  string  `json:"message"`
}

// BudgetStatus is the caps and what was spent against them (/budget, rpc
// get_budget).
type BudgetStatus struct {
	Limits  BudgetLimits `json:"limits"`
	Session Spend        `json:"session"`
	Run     Spend        `json:"run"`
	// Priced: the current model has prices, so dollar caps are checked.
	Priced bool `json:"priced"`
}

// priced reports whether m has prices, so that its requests have a cost in
// dollars.
func priced(m agent.Model) bool { return m.Cost != (agent.ModelCost{}) }

// estimateRequest is a request's cost at m's prices: its input (the guard's
// estimate of what is sent), all at the full input price since what the
// provider will read from its cache is not known, and outputTokens of
// answer.
func estimateRequest(m agent.Model, inputTokens, outputTokens int) Spend {
	const perMillion = 1e6
	return Spend{
		USD:    (float64(inputTokens)*m.Cost.Input + float64(outputTokens)*m.Cost.Output) / perMillion,
		Tokens: inputTokens + outputTokens,
	}
}

// budgetCheck is one request's position against the limits.
type budgetCheck struct {
	limits       BudgetLimits
	session, run Spend // spent before the request
	estimate     Spend
	model        agent.Model
}

// overBudget decides whether the request of c goes over a limit, the run's
// before the session's and dollars before tokens, and words the stop. An
// unpriced model's dollars are not counted: only its tokens are, and a
// dollar cap does not stop it (the caller notes that once, unpricedNote).
func overBudget(c budgetCheck) (BudgetInfo, bool) {
	type limit struct {
		scope BudgetScope
		unit  BudgetUnit
		cap   float64
		spent float64
		est   float64
	}
	var limits []limit
	if priced(c.model) {
		limits = append(limits,
			limit{BudgetRun, BudgetUSD, c.limits.RunUSD, c.run.USD, c.estimate.USD},
			limit{BudgetSession, BudgetUSD, c.limits.SessionUSD, c.session.USD, c.estimate.USD})
	}
	limits = append(limits,
		limit{BudgetRun, BudgetTokens, float64(c.limits.RunTokens), float64(c.run.Tokens), float64(c.estimate.Tokens)},
		limit{BudgetSession, BudgetTokens, float64(c.limits.SessionTokens), float64(c.session.Tokens), float64(c.estimate.Tokens)})
	for _, l := range limits {
		if l.cap <= 0 || l.spent+l.est <= l.cap {
			continue
		}
		info := BudgetInfo{Stopped: true, Scope: l.scope, Unit: l.unit, Limit: l.cap, Spent: l.spent, Estimate: l.est, Model: c.model.Ref()}
		info.Message = fmt.Sprintf("budget: this request (about %s) would take the %s's spend from %s to %s, over its %s budget; "+
			"not sent. Raise the budget with /budget, --max-cost or rpc set_budget",
			amount(l.unit, l.est), l.scope, amount(l.unit, l.spent), amount(l.unit, l.spent+l.est), amount(l.unit, l.cap))
		return info, true
	}
	return BudgetInfo{}, false
}

// unpricedNote is the note for a dollar cap that cannot be checked on m,
// and whether one is due: m has no prices and a dollar cap is set.
func unpricedNote(limits BudgetLimits, m agent.Model) (BudgetInfo, bool) {
	if priced(m) || !limits.hasUSD() {
		return BudgetInfo{}, false
	}
	msg := fmt.Sprintf("budget: %s has no prices, so its requests count in tokens only and the dollar budget does not limit them", m.Ref())
	if !limits.hasTokens() {
		msg += "; set budget.sessionTokens or budget.runTokens to cap them"
	}
	return BudgetInfo{Model: m.Ref(), Message: msg}, true
}

// amount words n of unit u.
func amount(u BudgetUnit, n float64) string {
	if u == BudgetUSD {
		return fmt.Sprintf("$%.4f", n)
	}
	return fmt.Sprintf("%d tokens", int(n))
}
