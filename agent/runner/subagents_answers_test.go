package runner

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// newMemSubagents is a parent's sub-agents without a database: their
// answers wait in memory.
func newMemSubagents() *subagents {
	return newSubagents(subagentDeps{log: slog.New(slog.DiscardHandler), now: func() time.Time { return time.Unix(1, 0) },
		sessionID: func() string { return "s_parent" },
		spawn: func(context.Context) (*Runtime, string, error) {
			return nil, "", errors.New("no child is started here")
		}})
}

// TestSubagentAnswersInMemory: answers kept in memory reach the parent's
// run merged in one message; an abort that kept the message out gives
// them back for the next drain point, and a stored message retires them.
func TestSubagentAnswersInMemory(t *testing.T) {
	tests := []struct {
		name string
		// after the first Poll: the message is stored (settle), or an abort
		// kept it out (Unpoll).
		stored   bool
		wantNext bool // the next Poll hands them over again
	}{
		{"stored", true, false},
		{"kept out by an abort", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newMemSubagents()
			if msgs := s.Poll(); msgs != nil {
				t.Fatalf("Poll with no answers = %+v", msgs)
			}
			for _, text := range []string{"[sub-agent s_a] one", "[sub-agent s_b] two"} {
				if err := s.deliver("s_parent", "s_x", text); err != nil {
					t.Fatal(err)
				}
			}
			msgs := s.Poll()
			if len(msgs) != 1 || !strings.HasPrefix(msgs[0].QueueItemID, heldPrefix) ||
				!strings.Contains(msgs[0].TextContent(), "one") || !strings.Contains(msgs[0].TextContent(), "two") {
				t.Fatalf("Poll = %+v, want one message holding both answers", msgs)
			}
			if tt.stored {
				s.settle(agent.MessageEnd{Message: msgs[0]})
			} else {
				s.Unpoll(msgs)
			}
			s.Unpoll(msgs) // once stored, there is nothing to give back
			again := s.Poll()
			if got := len(again) == 1 && again[0].TextContent() == msgs[0].TextContent(); got != tt.wantNext {
				t.Errorf("next Poll = %+v, want the answers again: %v", again, tt.wantNext)
			}
			if msgs := s.Wait(context.Background()); msgs != nil {
				t.Errorf("Wait with no child running = %+v, want nil", msgs)
			}
		})
	}
}
