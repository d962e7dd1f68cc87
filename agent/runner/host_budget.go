package runner

import "context"

// Budget is the current session's spend caps and what was spent against
// them.
func (c *currentSession) Budget(ctx context.Context) (BudgetStatus, error) {
	return c.current().Budget(ctx)
}

// SetBudget replaces the current session's spend caps; the other sessions
// keep theirs.
func (c *currentSession) SetBudget(l BudgetLimits) error { return c.current().SetBudget(l) }
