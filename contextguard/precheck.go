package contextguard

import (
	"fmt"

	"github.com/steer-tui/steer/agent"
)

// MidTurnSignal tells the runner to recover before the next request of a
// run: tool results that arrived since the last fence push the request over
// its budget by more than truncating tool results can absorb, so the
// session should be compacted first (SPEC §6.2, OpenClaw's
// MidTurnPrecheckSignal). It is a value to act on, not a failure; it
// implements error only so that it can travel through a seam that returns
// one, where errors.As finds it.
type MidTurnSignal struct {
	// Pressure is the next request as it stands; its Route compacts.
	Pressure Pressure
	// NewToolResults counts the tool results after the fence.
	NewToolResults int
}

func (s *MidTurnSignal) Error() string {
	return fmt.Sprintf("context precheck: the next request is %d tokens over its budget of %d after %d new tool results (%s)",
		s.Pressure.Overflow, s.Pressure.Budget, s.NewToolResults, s.Pressure.Route)
}

// Precheck estimates the next request of a run when tool results arrived
// after fence, the number of messages llm held at the last fence (the start
// of the attempt, or the previous precheck). It returns a signal when the
// route compacts (compact_only, compact_then_truncate), and nil when nothing
// new arrived, the window is unknown, the request fits, or the guard's
// truncation of tool results is enough.
func (g *Guard) Precheck(llm agent.LLMContext, fence int, b Budget) *MidTurnSignal {
	if !b.Known() {
		return nil
	}
	n := 0
	for _, m := range llm.Messages[min(max(fence, 0), len(llm.Messages)):] {
		if m.Role == agent.RoleToolResult {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if p := g.Assess(llm, b); p.Route.Compacts() {
		return &MidTurnSignal{Pressure: p, NewToolResults: n}
	}
	return nil
}
