package runner

import (
	"context"
	"log/slog"
	"strconv"
	"sync"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/persistence"
	"github.com/steer-tui/steer/persistence/checkpoint"
)

// checkpoints snapshot the workspace before the first mutating tool of each
// turn (issue 32), so that a rewind can restore it, and after every
// mutating tool, so that a preview can tell what changed outside steer.
// A snapshot that fails is logged and the tool runs anyway: losing a
// checkpoint must not stop the user's work.
type checkpoints struct {
	store  *persistence.Store
	shadow *checkpoint.Store // nil: checkpoints are off (no git, no saved state)
	log    *slog.Logger

	mu   sync.Mutex // one call checkpoints a turn, the others of its batch wait
	done map[string]int
}

// newCheckpoints opens the workspace's shadow repository in the state
// directory; without a store, a workspace or git, checkpoints are off.
func newCheckpoints(store *persistence.Store, workspace string, log *slog.Logger) *checkpoints {
	c := &checkpoints{store: store, log: log, done: map[string]int{}}
	if store == nil || workspace == "" {
		return c
	}
	shadow, err := checkpoint.Open(store.Dir(), workspace, checkpoint.Options{})
	if err != nil {
		log.Warn("checkpoints are off", "workspace", workspace, "error", err)
		return c
	}
	c.shadow = shadow
	return c
}

// wrap puts each tool behind the checkpoints of session's turns.
func (c *checkpoints) wrap(ts []agent.Tool, session func() string) []agent.Tool {
	if c.shadow == nil {
		return ts
	}
	out := make([]agent.Tool, len(ts))
	for i, t := range ts {
		out[i] = checkpointTool{Tool: t, c: c, session: session}
	}
	return out
}

// before takes the turn's checkpoint unless this process took it already.
func (c *checkpoints) before(ctx context.Context, session string) {
	turn, err := c.store.CurrentTurn(ctx, session)
	if err != nil || turn == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done[session] == turn {
		return
	}
	if _, err := c.shadow.Take(ctx, session, strconv.Itoa(turn), checkpoint.KindTurn); err != nil {
		c.log.Warn("checkpoint failed", "session", session, "turn", turn, "error", err)
		return
	}
	c.done[session] = turn
	if _, err := c.shadow.Prune(ctx, session, 0, 0); err != nil {
		c.log.Warn("pruning checkpoints failed", "session", session, "error", err)
	}
}

// after records the workspace as the tool left it.
func (c *checkpoints) after(ctx context.Context, session string) {
	if err := c.shadow.Settle(ctx, session); err != nil {
		c.log.Warn("recording the workspace after a tool failed", "session", session, "error", err)
	}
}

// checkpointTool is a tool below the approval gate: a mutating call that
// the gate let through is checkpointed before and after it runs.
type checkpointTool struct {
	agent.Tool
	c       *checkpoints
	session func() string
}

// Describe forwards to the wrapped tool, so the gate judges it the same.
func (t checkpointTool) Describe(args map[string]any) tools.Access {
	return tools.DescribeCall(t.Tool, args)
}

func (t checkpointTool) Execute(ctx context.Context, callID string, args map[string]any, update agent.ToolUpdate) (agent.ToolResult, error) {
	if !tools.DescribeCall(t.Tool, args).Mutating {
		return t.Tool.Execute(ctx, callID, args, update)
	}
	if err := interruptedGuard(t.c); err != nil {
		return agent.ToolResult{}, err
	}
	session := t.session()
	t.c.before(ctx, session)
	defer t.c.after(context.WithoutCancel(ctx), session)
	return t.Tool.Execute(ctx, callID, args, update)
}
