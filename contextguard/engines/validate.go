package engines

import (
	"errors"
	"fmt"

	"github.com/steer-tui/steer/agent"
)

// checkAssemble enforces AssembleResult's contract: an assembly that sends
// nothing, or that drops the message the model must answer, would turn an
// engine bug into a provider error on every request.
func checkAssemble(req AssembleRequest, res AssembleResult) error {
	if len(req.Messages) == 0 {
		return nil
	}
	if len(res.Messages) == 0 {
		return errors.New("assemble returned no messages")
	}
	if err := checkRoles(res.Messages); err != nil {
		return fmt.Errorf("assemble: %w", err)
	}
	if last := req.Messages[len(req.Messages)-1]; last.Role != agent.RoleAssistant &&
		res.Messages[len(res.Messages)-1].Role == agent.RoleAssistant {
		return errors.New("assemble returned messages ending with an assistant message; the request ended with a " + string(last.Role) + " message")
	}
	return nil
}

// checkCompact enforces CompactResult's contract: a compaction that would
// store an empty transcript is a bug, not a summary.
func checkCompact(_ CompactRequest, res CompactResult) error {
	switch {
	case res.Delegate:
		return nil
	case res.Compacted && len(res.Messages) == 0:
		return errors.New("compact reported compacted but returned no messages")
	case res.Compacted:
		if err := checkRoles(res.Messages); err != nil {
			return fmt.Errorf("compact: %w", err)
		}
	}
	return nil
}

// checkRoles rejects a message without a known role, which an in-process
// engine could build (a decoded one already has one).
func checkRoles(msgs []agent.Message) error {
	for i, m := range msgs {
		switch m.Role {
		case agent.RoleUser, agent.RoleAssistant, agent.RoleToolResult:
		default:
			return fmt.Errorf("message %d has role %q", i, m.Role)
		}
	}
	return nil
}
