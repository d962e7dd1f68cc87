package rpc

import (
	"context"

	"github.com/steer-tui/steer/agent/tools"
)

// setApprovalMode switches the session's approval mode (plan mode too).
func (s *Server) setApprovalMode(_ context.Context, c command) (any, error) {
	name, err := c.requiredString("mode")
	if err != nil {
		return nil, err
	}
	mode, err := tools.ParseApproval(name)
	if err != nil {
		return nil, err
	}
	return nil, s.rt.SetApprovalMode(mode)
}

// planApprove approves the session's plan into mode, as the TUI's plan
// dialog does.
func (s *Server) planApprove(ctx context.Context, c command) (any, error) {
	name, err := c.requiredString("mode")
	if err != nil {
		return nil, err
	}
	return delivered(s.rt.ApprovePlan(ctx, tools.Mode(name)))
}
