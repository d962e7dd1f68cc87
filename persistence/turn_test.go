package persistence

import (
	"context"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestCurrentTurn(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if got, err := f.store.CurrentTurn(ctx, "s1"); err != nil || got != 0 {
		t.Fatalf("empty session: %d, %v; want 0", got, err)
	}
	f.append(t, user("first", 1), assistantCalls(2, agent.ToolCall("c", "ls", nil)))
	if got, err := f.store.CurrentTurn(ctx, "s1"); err != nil || got != 1 {
		t.Fatalf("after the first question: %d, %v; want 1", got, err)
	}
	f.append(t, assistantText("ok", 3), user("second", 4), assistantText("done", 5))
	if got, err := f.store.CurrentTurn(ctx, "s1"); err != nil || got != 4 {
		t.Fatalf("after the second question: %d, %v; want 4", got, err)
	}
}
