package persistence

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// TestTreeMigrationLosesNoRow starts from a database written by schema
// 0010 (what steer wrote before the transcript became a tree): sessions with
// several messages, one with none, a message that delivered a queue item.
// After the migration every row is there, each the child of the one before,
// the session's leaf is its last entry, and the transcript loads as it did.
func TestTreeMigrationLosesNoRow(t *testing.T) {
	dir := t.TempDir()
	path := buildAtVersion(t, dir, 10)
	db, err := sql.Open(driverName, writerDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	sessions := map[string][]agent.Message{
		"s_long":  {user("one", 1), assistantText("two", 2), user("three", 3), toolResult("c1", "read", "body", 4), assistantText("five", 5)},
		"s_short": {user("only", 6)},
		"s_empty": nil,
	}
	sessions["s_short"][0].QueueItemID = "q_1"
	for id, msgs := range sessions {
		if _, err := db.Exec(`INSERT INTO sessions (id, created_at, updated_at, message_count) VALUES (?, 1, 1, ?)`, id, len(msgs)); err != nil {
			t.Fatal(err)
		}
		enc, err := encodeMessages(msgs)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range msgs {
			if _, err := db.Exec(`INSERT INTO transcript_entries (session_id, seq, role, content, run_id, created_at)
				VALUES (?, ?, ?, ?, 'r_old', ?)`, id, i+1, string(m.Role), enc[i], i+1); err != nil {
				t.Fatal(err)
			}
		}
	}
	var rowsBefore int
	if err := db.QueryRow(`SELECT COUNT(*) FROM transcript_entries`).Scan(&rowsBefore); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	s := openStore(t, dir)
	ctx := context.Background()
	rowsAfter := 0
	for id, want := range sessions {
		t.Run(id, func(t *testing.T) {
			history, err := s.LoadHistory(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			rowsAfter += len(history)
			if len(history) != len(want) {
				t.Fatalf("%d entries after the migration, want %d", len(history), len(want))
			}
			for i, e := range history {
				if e.Seq != i+1 || e.Parent != i || e.Kind != EntryMessage {
					t.Errorf("entry %d: seq %d parent %d kind %s, want one branch of messages", i, e.Seq, e.Parent, e.Kind)
				}
			}
			got, err := s.LoadTranscript(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			assertMessages(t, got, want)
		})
	}
	if rowsAfter != rowsBefore {
		t.Errorf("%d entries after the migration, %d before", rowsAfter, rowsBefore)
	}
	// An append after the migration goes under the migrated leaf.
	if err := s.CreateSession(ctx, Session{ID: "s_new"}); err != nil {
		t.Fatal(err)
	}
	if err := s.BeginRun(ctx, Run{ID: "r_new", SessionID: "s_long"}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMessage(ctx, "s_long", "r_new", user("six", 7)); err != nil {
		t.Fatal(err)
	}
	history, err := s.LoadHistory(ctx, "s_long")
	if err != nil {
		t.Fatal(err)
	}
	if last := history[len(history)-1]; last.Seq != 6 || last.Parent != 5 || last.Message.TextContent() != "six" {
		t.Errorf("the append after the migration is %s", fmt.Sprintf("%+v", last))
	}
}
