package scale

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/contextguard"
	"github.com/steer-tui/steer/persistence"
)

var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// TestWriters checks that both writers make the session described, the
// same one: its history, what the model sees, its search rows and no claim
// left behind.
func TestWriters(t *testing.T) {
	s := Session{ID: "s_scale", Workspace: "/ws", Messages: 40, Topic: "parser", CompactEvery: 15, Start: epoch}
	var histories [][]persistence.Entry
	for _, tt := range []struct {
		name  string
		write func(context.Context, *persistence.Store, Session) error
	}{{"appends", Write}, {"import", Import}} {
		t.Run(tt.name, func(t *testing.T) {
			histories = append(histories, checkWritten(t, tt.write, s))
		})
	}
	if len(histories) != 2 {
		return
	}
	a, b := histories[0], histories[1]
	for i := range a {
		a[i].Created, b[i].Created = time.Time{}, time.Time{} // the appends are stamped by the store
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("the appends and the import wrote different histories")
	}
}

func checkWritten(t *testing.T, write func(context.Context, *persistence.Store, Session) error, s Session) []persistence.Entry {
	ctx := context.Background()
	store, err := persistence.Open(t.TempDir(), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if err := write(ctx, store, s); err != nil {
		t.Fatal(err)
	}
	history, err := store.LoadHistory(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	var messages, contexts int
	for _, e := range history {
		switch e.Kind {
		case persistence.EntryMessage:
			messages++
		case persistence.EntryContext:
			contexts++
		}
	}
	// 40 messages; turns end at 6, 12, ..., 36: compactions after 18 and 30.
	if messages != 40 || contexts != 2 || len(history) != s.Entries() {
		t.Errorf("history: %d messages, %d context entries, %d in all; want 40, 2, %d", messages, contexts, len(history), s.Entries())
	}
	seen, err := store.LoadTranscript(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1+6+10 || !contextguard.IsSummary(seen[0]) || seen[1].Role != agent.RoleUser {
		t.Errorf("the model's context is %d messages, first %s; want the summary, the last turn kept and 10 after", len(seen), seen[0].Role)
	}
	hits, err := store.SearchSessions(ctx, "compute", "", 10)
	if err != nil || len(hits) != 1 || hits[0].SessionID != s.ID {
		t.Errorf("search compute (in tool results only): %v, %v", hits, err)
	}
	if _, err := store.ClaimSession(ctx, s.ID); err != nil {
		t.Errorf("the session is still claimed elsewhere: %v", err)
	}
	return history
}

func TestMessagesLookLikeWork(t *testing.T) {
	msgs := Messages(12, "lexer", epoch)
	if len(msgs) != 12 {
		t.Fatalf("%d messages, want 12", len(msgs))
	}
	roles := []agent.Role{agent.RoleUser, agent.RoleAssistant, agent.RoleToolResult, agent.RoleAssistant, agent.RoleToolResult, agent.RoleAssistant}
	for i, m := range msgs {
		if m.Role != roles[i%turnLength] {
			t.Errorf("message %d is %s, want %s", i, m.Role, roles[i%turnLength])
		}
		if !m.Timestamp.Equal(epoch.Add(time.Duration(i) * time.Second)) {
			t.Errorf("message %d is stamped %v", i, m.Timestamp)
		}
	}
	if n := len(msgs[2].TextContent()); n < 2000 || n > 5000 {
		t.Errorf("the read result is %d bytes, want a few KB", n)
	}
	if calls := msgs[1].ToolCalls(); len(calls) != 1 || calls[0].ID != msgs[2].ToolCallID {
		t.Errorf("the read call %v does not match its result %q", calls, msgs[2].ToolCallID)
	}
	if !strings.Contains(msgs[5].TextContent(), "```go") || msgs[5].TextContent() == msgs[11].TextContent() {
		t.Error("the answers are not distinct markdown with code")
	}
}
