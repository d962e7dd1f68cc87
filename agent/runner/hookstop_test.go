package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner/hooks"
	"github.com/steer-tui/steer/agent/tools"
)

// TestStopHooksByKindOfRuntime: a session's runs stop through its Stop
// hooks, a sub-agent's through its SubagentStop hooks; a block is the
// model's next input, marked as the hook's, and a hook that blocks for
// ever is cut off after MaxStopBlocks with a notice.
func TestStopHooksByKindOfRuntime(t *testing.T) {
	mk := func(ev hooks.Event) hooks.Hook {
		h, err := hooks.New(hooks.Hook{Event: ev, Command: "echo keep going >&2; exit 2", Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	hs := []hooks.Hook{mk(hooks.Stop), mk(hooks.SubagentStop)}
	for _, tc := range []struct {
		subAgent bool
		tag      string
	}{{false, "<stop-hook>"}, {true, "<subagent-stop-hook>"}} {
		var notices []string
		notify := func(_ NoticeKind, text string, _ any) { notices = append(notices, text) }
		calls := newHookCalls(hs, t.TempDir(), func() tools.Mode { return tools.ModeAuto }, time.Now, func() string { return "s1" }, notify)
		s := newStopHooks(calls, tc.subAgent, time.Now, notify)
		ctx := context.Background()
		for i := 0; i < MaxStopBlocks; i++ {
			msgs := s.beforeStop(ctx, agent.Message{})
			if len(msgs) != 1 || !strings.Contains(msgs[0].TextContent(), tc.tag) || !strings.Contains(msgs[0].TextContent(), "keep going") {
				t.Fatalf("sub-agent %v, stop %d: %v", tc.subAgent, i, msgs)
			}
		}
		if msgs := s.beforeStop(ctx, agent.Message{}); msgs != nil {
			t.Errorf("sub-agent %v: the run went on past %d blocks", tc.subAgent, MaxStopBlocks)
		}
		if n := len(notices); n != MaxStopBlocks+2 || !strings.Contains(notices[0], "block: keep going") || !strings.Contains(notices[n-1], "in a row") {
			t.Errorf("sub-agent %v: notices %q, want each block and then the cut-off", tc.subAgent, notices)
		}
		// Another run starts the count again.
		other, cancel := context.WithCancel(ctx)
		if msgs := s.beforeStop(other, agent.Message{}); len(msgs) != 1 {
			t.Errorf("sub-agent %v: a new run's first stop was not asked about", tc.subAgent)
		}
		cancel()
	}
}
