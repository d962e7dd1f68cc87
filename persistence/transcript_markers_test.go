package persistence

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// TestBranchingKeepsEverything: moving the leaf back and appending makes a
// branch; the tree keeps both, the history and the context follow the leaf,
// a branch summary stands for the branch left, and markers stay out of the
// model's context.
func TestBranchingKeepsEverything(t *testing.T) {
	f := newFixture(t)
	f.append(t, user("one", 1), assistantText("two", 2), user("three", 3), assistantText("four", 4))
	if _, err := f.store.AppendMarker(f.ctx, testSession, EntryLabel, Marker{Target: 3, Label: "before three"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.AppendMarker(f.ctx, testSession, EntryModelChange, Marker{Model: "p/m2"}); err != nil {
		t.Fatal(err)
	}
	leaf, err := f.store.SetLeaf(f.ctx, testSession, 2, "tried three and four")
	if err != nil {
		t.Fatal(err)
	}
	f.append(t, user("three again", 5))

	tree, err := f.store.LoadTree(f.ctx, testSession)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.Entries) != 8 || tree.Leaf != 8 {
		t.Fatalf("tree has %d entries, leaf %d; want 8 and 8", len(tree.Entries), tree.Leaf)
	}
	if e := tree.Entries[leaf-1]; e.Kind != EntryBranchSummary || e.Parent != 2 || e.Marker.Summary != "tried three and four" {
		t.Fatalf("the branch summary is %+v", e)
	}
	if e := tree.Entries[4]; e.Kind != EntryLabel || e.Marker.Target != 3 || e.Marker.Label != "before three" {
		t.Fatalf("the label is %+v", e)
	}
	history, err := f.store.LoadHistory(f.ctx, testSession)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(treeShapes(history), " "); got != "1<0:user 2<1:assistant 7<2:branch_summary 8<7:user" {
		t.Fatalf("history %s", got)
	}
	msgs := f.transcript(t)
	if len(msgs) != 4 || !strings.Contains(msgs[2].TextContent(), "tried three and four") || msgs[3].TextContent() != "three again" {
		t.Fatalf("context %v", msgs)
	}
	if ss := f.session(t); ss.MessageCount != 5 {
		t.Fatalf("message count %d: markers are not messages", ss.MessageCount)
	}
}

func TestMarkerAndLeafErrors(t *testing.T) {
	f := newFixture(t)
	f.append(t, user("one", 1))
	tests := []struct {
		name string
		do   func() error
		want error
	}{
		{"a label on no entry", func() error {
			_, err := f.store.AppendMarker(f.ctx, testSession, EntryLabel, Marker{Target: 7, Label: "x"})
			return err
		}, ErrNoEntry},
		{"a message is no marker", func() error {
			_, err := f.store.AppendMarker(f.ctx, testSession, EntryMessage, Marker{})
			return err
		}, nil},
		{"the leaf on no entry", func() error { _, err := f.store.SetLeaf(f.ctx, testSession, 9, ""); return err }, ErrNoEntry},
		{"a summary under no entry", func() error { _, err := f.store.SetLeaf(f.ctx, testSession, 9, "s"); return err }, ErrNoEntry},
		{"no session", func() error { _, err := f.store.SetLeaf(f.ctx, "s_none", 1, ""); return err }, ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.do()
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("err %v, want %v", err, tt.want)
			}
		})
	}
	if tree, err := f.store.LoadTree(f.ctx, testSession); err != nil || len(tree.Entries) != 1 || tree.Leaf != 1 {
		t.Fatalf("a refused write changed the tree: %+v %v", tree, err)
	}
}

// TestForkCopiesThePath: a fork holds exactly the path to the entry it was
// cut at, as one branch, with the labels of that path renumbered, in the
// search index, and remembers where it came from; the original is untouched.
func TestForkCopiesThePath(t *testing.T) {
	f := newFixture(t)
	f.append(t, user("alpha", 1), assistantText("beta", 2))
	if _, err := f.store.AppendMarker(f.ctx, testSession, EntryLabel, Marker{Target: 1, Label: "start"}); err != nil {
		t.Fatal(err)
	}
	f.append(t, user("gamma", 3), assistantText("delta", 4))
	if _, err := f.store.SetLeaf(f.ctx, testSession, 3, ""); err != nil {
		t.Fatal(err)
	}
	f.append(t, user("epsilon zebra", 5)) // a branch off the label: 6 < 3
	if _, err := f.store.AppendMarker(f.ctx, testSession, EntryLabel, Marker{Target: 4, Label: "other branch"}); err != nil {
		t.Fatal(err)
	}
	if err := f.store.ForkSession(f.ctx, testSession, 7, Session{ID: "s_fork", Workspace: "/work", Title: "t", Model: "m"}); err != nil {
		t.Fatal(err)
	}
	history, err := f.store.LoadHistory(f.ctx, "s_fork")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(treeShapes(history), " "); got != "1<0:user 2<1:assistant 3<2:label 4<3:user" {
		t.Fatalf("fork history %s", got)
	}
	if history[2].Marker.Target != 1 {
		t.Fatalf("the label names %d, want the copy of alpha", history[2].Marker.Target)
	}
	ss, err := f.store.Session(f.ctx, "s_fork")
	if err != nil {
		t.Fatal(err)
	}
	if ss.ForkedFrom != testSession || ss.ForkedAt != 7 || ss.MessageCount != 3 {
		t.Fatalf("fork session %+v", ss)
	}
	hits, err := f.store.SearchSessions(f.ctx, "zebra", "", 10)
	if err != nil || len(hits) != 2 {
		t.Fatalf("search finds %v (%v), want both sessions", hits, err)
	}
	if tree, _ := f.store.LoadTree(f.ctx, testSession); len(tree.Entries) != 7 {
		t.Fatalf("the original has %d entries after the fork", len(tree.Entries))
	}
	if err := f.store.ForkSession(f.ctx, testSession, 0, Session{ID: "s_empty", Workspace: "/work"}); err != nil {
		t.Fatal(err)
	}
	if h, err := f.store.LoadHistory(f.ctx, "s_empty"); err != nil || len(h) != 0 {
		t.Fatalf("a fork at 0 holds %v (%v)", h, err)
	}
	for name, err := range map[string]error{
		"no entry":   f.store.ForkSession(f.ctx, testSession, 99, Session{ID: "s_x"}),
		"no session": f.store.ForkSession(f.ctx, "s_none", 1, Session{ID: "s_y"}),
		"taken id":   f.store.ForkSession(f.ctx, testSession, 1, Session{ID: "s_fork"}),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestEntryKindsMigrationLosesNoRow starts from a database of schema 0013
// (a tree of messages and a context entry) and finds every row, column for
// column, after the table is rebuilt.
func TestEntryKindsMigrationLosesNoRow(t *testing.T) {
	dir := t.TempDir()
	path := buildAtVersion(t, dir, 13)
	db, err := sql.Open(driverName, writerDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	enc, err := encodeMessages([]agent.Message{user("one", 1), assistantText("two", 2)})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO sessions (id, created_at, updated_at, message_count, leaf_seq) VALUES ('s_a', 1, 1, 2, 3)`,
		`INSERT INTO transcript_entries (session_id, seq, parent_seq, kind, role, content, input_tokens, cost, run_id, created_at)
			VALUES ('s_a', 1, NULL, 'message', 'user', '` + enc[0] + `', 0, 0, 'r1', 1)`,
		`INSERT INTO transcript_entries (session_id, seq, parent_seq, kind, role, content, input_tokens, cost, run_id, created_at)
			VALUES ('s_a', 2, 1, 'message', 'assistant', '` + enc[1] + `', 42, 0.5, 'r1', 2)`,
		`INSERT INTO transcript_entries (session_id, seq, parent_seq, kind, role, content, run_id, created_at)
			VALUES ('s_a', 3, 2, 'context', '', '[` + enc[1] + `]', 'r2', 3)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	const dump = `SELECT group_concat(session_id || '|' || seq || '|' || COALESCE(parent_seq, '-') || '|' || kind || '|' ||
		role || '|' || content || '|' || input_tokens || '|' || cost || '|' || run_id || '|' || created_at, '~') FROM
		(SELECT * FROM transcript_entries ORDER BY session_id, seq)`
	var before string
	if err := db.QueryRow(dump).Scan(&before); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s := openStore(t, dir)
	var after string
	if err := s.reader.QueryRowContext(context.Background(), dump).Scan(&after); err != nil {
		t.Fatal(err)
	}
	if after != before {
		t.Fatalf("rows after the migration:\n%s\nbefore:\n%s", after, before)
	}
	msgs, err := s.LoadTranscript(context.Background(), "s_a")
	if err != nil || len(msgs) != 1 || msgs[0].TextContent() != "two" {
		t.Fatalf("context after the migration %v (%v)", msgs, err)
	}
}

// treeShapes words entries as "seq<parent:what", what being a message's
// role or another entry's kind.
func treeShapes(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		what := string(e.Kind)
		if e.Kind == EntryMessage {
			what = string(e.Message.Role)
		}
		out[i] = fmt.Sprintf("%d<%d:%s", e.Seq, e.Parent, what)
	}
	return out
}
