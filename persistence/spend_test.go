package persistence

import (
	"context"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// TestSessionSpend: the session's running totals and its answers; an
// unsaved session has spent nothing.
func TestSessionSpend(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if sp, err := s.SessionSpend(ctx, "s_none"); err != nil || sp != (SessionSpend{}) {
		t.Fatalf("an unsaved session: %+v, %v", sp, err)
	}
	if err := s.CreateSession(ctx, Session{ID: "s1", Workspace: "/ws"}); err != nil {
		t.Fatal(err)
	}
	if err := s.BeginRun(ctx, Run{ID: "r1", SessionID: "s1"}); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	answer := agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.Text("a")}, StopReason: agent.StopReasonStop,
		Timestamp: at, Usage: agent.Usage{Input: 100, Output: 50, Cost: agent.Cost{Total: 0.25}}}
	for _, m := range []agent.Message{agent.UserMessage("q", at), answer, agent.UserMessage("q2", at), answer} {
		if err := s.AppendMessage(ctx, "s1", "r1", m); err != nil {
			t.Fatal(err)
		}
	}
	sp, err := s.SessionSpend(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if want := (SessionSpend{Cost: 0.5, InputTokens: 200, OutputTokens: 100, Answers: 2}); sp != want {
		t.Fatalf("spend %+v, want %+v", sp, want)
	}
}
