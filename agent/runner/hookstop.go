package runner

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner/hooks"
)

// MaxStopBlocks is how many times in a row the Stop (or SubagentStop)
// hooks may keep one run going. Claude Code leaves the guard to the hook
// (stop_hook_active); a hook that forgets it would otherwise spend without
// end, so past this the run ends and a hook notice says why.
const MaxStopBlocks = 8

// stopHooks is the agent's BeforeStop: the Stop hooks (SubagentStop in a
// sub-agent) run when a run would end with the model's answer, and a hook
// that blocks (exit 2, decision "block") sends its reason to the model,
// which goes on. The count of blocks is one run's: a new run (another ctx)
// starts it again.
type stopHooks struct {
	calls  *hookCalls
	event  hooks.Event
	now    func() time.Time
	notify func(NoticeKind, string, any)

	mu      sync.Mutex
	run     context.Context
	blocked int
}

func newStopHooks(calls *hookCalls, subAgent bool, now func() time.Time, notify func(NoticeKind, string, any)) *stopHooks {
	ev := hooks.Stop
	if subAgent {
		ev = hooks.SubagentStop
	}
	return &stopHooks{calls: calls, event: ev, now: now, notify: notify}
}

// beforeStop is the agent.BeforeStop.
func (s *stopHooks) beforeStop(ctx context.Context, _ agent.Message) []agent.Message {
	in := s.calls.input(s.event)
	if !s.calls.engine.Has(in) {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.run != ctx {
		s.run, s.blocked = ctx, 0
	}
	active := s.blocked > 0
	in.StopHookActive = &active
	r := s.calls.engine.Run(ctx, in)
	if r.Decision != hooks.Deny || r.Stop || ctx.Err() != nil {
		s.blocked = 0
		return nil
	}
	if s.blocked == MaxStopBlocks {
		line := fmt.Sprintf("hook %s kept the run going %d times in a row: it ends here", s.event, MaxStopBlocks)
		s.notify(NoticeHook, line, HookOutcome{Hook: string(s.event), Event: string(s.event),
			Outcome: fmt.Sprintf("kept the run going %d times in a row: it ends here", MaxStopBlocks), Problem: true})
		s.blocked = 0
		return nil
	}
	s.blocked++
	return []agent.Message{agent.UserMessage(stopHookNote(s.event, r.Reason), s.now())}
}

// stopHookNote is what the model reads when a Stop hook blocked its stop,
// marked as the hook's so that it is told from the user's words.
func stopHookNote(ev hooks.Event, reason string) string {
	tag := "stop-hook"
	if ev == hooks.SubagentStop {
		tag = "subagent-stop-hook"
	}
	return "<" + tag + ">\nA " + string(ev) + " hook kept you from stopping: " + reason + "\n</" + tag + ">"
}
