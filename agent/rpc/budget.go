package rpc

import (
	"context"
	"encoding/json"
	"fmt"
)

// getBudget answers with the spend caps and what was spent against them.
func (s *Server) getBudget(ctx context.Context, _ command) (any, error) {
	return s.rt.Budget(ctx)
}

// setBudget changes the caps it names — session and run in dollars,
// sessionTokens and runTokens — keeping the others; 0 removes a cap. It
// answers like get_budget.
func (s *Server) setBudget(ctx context.Context, c command) (any, error) {
	cur, err := s.rt.Budget(ctx)
	if err != nil {
		return nil, err
	}
	l := cur.Limits
	named := false
	for _, f := range []struct {
		name    string
		dollars *float64
		tokens  *int
	}{
		{"session", &l.SessionUSD, nil}, {"run", &l.RunUSD, nil},
		{"sessionTokens", nil, &l.SessionTokens}, {"runTokens", nil, &l.RunTokens},
	} {
		raw, ok := c.fields[f.name]
		if !ok {
			continue
		}
		named = true
		var dest any = f.dollars
		if f.tokens != nil {
			dest = f.tokens
		}
		if err := json.Unmarshal(raw, dest); err != nil {
			return nil, fmt.Errorf("%q: want a number (0 removes the cap), got %s", f.name, raw)
		}
	}
	if !named {
		return nil, fmt.Errorf(`set_budget needs "session", "run" (dollars), "sessionTokens" or "runTokens"`)
	}
	if err := s.rt.SetBudget(l); err != nil {
		return nil, err
	}
	return s.rt.Budget(ctx)
}
