package runner

import (
	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/contextguard"
)

// MeterRoute is what the context guard would do to the next request as it
// stands: let it through, cut tool results, or compact the session.
type MeterRoute string

// The routes a ContextMeter shows.
const (
	MeterFits     MeterRoute = "fits"
	MeterTruncate MeterRoute = "truncate"
	MeterCompact  MeterRoute = "compact"
)

// ContextMeter is how full the next request would be: the estimated size of
// the session's context (system prompt, tool schemas, transcript) against
// the model's window, and the guard's route for it (SPEC §6.2). The status
// line shows it as a meter coloured by the route.
type ContextMeter struct {
	Tokens int `json:"tokens"`
	// Window is the model's context window in tokens, narrowed by a limit
	// an overflow error stated in this run; 0 when unknown.
	Window int `json:"window"`
	// Budget is what the prompt may use of the window (the rest is kept for
	// the answer); 0 when the window is unknown.
	Budget int        `json:"budget"`
	Route  MeterRoute `json:"route"`
}

// meterRoute words the guard's route for the meter: any route that
// compacts is a compaction, even when truncation follows it.
func meterRoute(r contextguard.Route) MeterRoute {
	switch {
	case r.Compacts():
		return MeterCompact
	case r == contextguard.RouteTruncateToolResultsOnly:
		return MeterTruncate
	}
	return MeterFits
}

// ContextMeter measures the session as the next request would send it, with
// the guard's estimator (whose cache makes a repeat cheap): the prompt with
// the skills and context files as the last request had them, the messages
// the model gets. It does no IO; ContextBreakdown, which reads the disk,
// agrees with it while the skills and files are unchanged.
func (i *inspectors) ContextMeter() ContextMeter {
	st := i.agent.State()
	llm := agent.LLMContext{SystemPrompt: i.memory.lastPrompt(i.library.withLastSkills(i.systemPrompt)),
		Messages: agent.ForModel(st.Messages), Tools: i.agent.Tools().Specs()}
	b := i.keeper.run.budget(st.Model, agent.StreamOptions{})
	p := i.keeper.guard.Assess(llm, b)
	return ContextMeter{Tokens: p.Tokens, Window: b.Window, Budget: p.Budget, Route: meterRoute(p.Route)}
}
