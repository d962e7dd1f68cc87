package runner

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/persistence"
	"github.com/steer-tui/steer/persistence/persisttest/scale"
)

// TestOpenReadsTheRecentHistory: a compacted session opens with what the
// model sees and its latest compaction; SavedEarlier reads the rest, and
// together they are the history the model no longer sees, as a whole read
// splits it. A session never compacted has nothing saved above it.
func TestOpenReadsTheRecentHistory(t *testing.T) {
	epoch := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range []struct {
		name         string
		compactEvery int
		wantSaved    bool
	}{
		{"compacted", 25, true},
		{"never compacted", 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			store := openStore(t, t.TempDir())
			defer store.Close()
			s := scale.Session{ID: "s_long", Workspace: "/ws", Messages: 100, Topic: "lexer", CompactEvery: tt.compactEvery, Start: epoch}
			if err := scale.Import(ctx, store, s); err != nil {
				t.Fatal(err)
			}
			// 100 messages end in the middle of a turn's tool calls: the
			// open repairs the cut, as after a crash.
			rt := newRuntime(t, store, agenttest.NewScript(), Options{Session: s.ID})
			st := rt.State()
			whole, err := store.LoadHistory(ctx, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			wantEarlier, wantSees := splitHistory(historyOf(whole))
			if last := wantSees[len(wantSees)-1]; last.ErrorMessage != persistence.InterruptedTurnText {
				t.Errorf("the session ends with %s %q, want the repair's marker", last.Role, last.ErrorMessage)
			}
			if !reflect.DeepEqual(st.Messages, wantSees) {
				t.Errorf("the model sees %d messages, want %d", len(st.Messages), len(wantSees))
			}
			if got := st.EarlierSaved != ""; got != tt.wantSaved {
				t.Fatalf("EarlierSaved = %q, want saved history: %v", st.EarlierSaved, tt.wantSaved)
			}
			earlier := st.Earlier
			if tt.wantSaved {
				if len(st.Earlier) != 1 || st.Earlier[0].Kind != HistoryContext || st.Earlier[0].ID != st.EarlierSaved {
					t.Fatalf("Earlier is %d entries, want the latest compaction alone, %s", len(st.Earlier), st.EarlierSaved)
				}
				saved, err := rt.SavedEarlier(ctx, s.ID, st.EarlierSaved)
				if err != nil {
					t.Fatal(err)
				}
				earlier = append(saved, st.Earlier...)
			}
			if !reflect.DeepEqual(earlier, wantEarlier) {
				t.Errorf("the history above: %d entries, want %d", len(earlier), len(wantEarlier))
			}
		})
	}
}

// TestSavedEarlierRefusesAnEntryNotACompaction: only a compaction on the
// session's branch starts what SavedEarlier reads.
func TestSavedEarlierRefusesAnEntryNotACompaction(t *testing.T) {
	ctx := context.Background()
	store := openStore(t, t.TempDir())
	defer store.Close()
	s := scale.Session{ID: "s_long", Workspace: "/ws", Messages: 30, Topic: "lexer", CompactEvery: 10, Start: time.Unix(0, 0)}
	if err := scale.Import(ctx, store, s); err != nil {
		t.Fatal(err)
	}
	rt := newRuntime(t, store, agenttest.NewScript(), Options{})
	for _, before := range []string{"1", "999", ""} {
		if got, err := rt.SavedEarlier(ctx, s.ID, before); err == nil {
			t.Errorf("SavedEarlier(%q) = %d entries, want an error", before, len(got))
		}
	}
	if _, err := rt.SavedEarlier(ctx, "s_none", "12"); err != ErrNoSavedSession {
		t.Errorf("SavedEarlier of no session: %v, want ErrNoSavedSession", err)
	}
}
