package persistence

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// importFixture is a tree with a branch: u1 → a1 → ctx → u2 (the leaf), and
// a1 → b1, the branch left behind, whose word only it holds; one input is
// queued.
func importFixture() ImportedSession {
	return ImportedSession{
		Session: Session{ID: "s_imported", Workspace: "/there", Name: "the import", Model: "scripted/echo", Created: epoch},
		Entries: []ImportedEntry{
			{Parent: -1, Kind: EntryMessage, Message: user("first question", 1), Created: at(1)},
			{Parent: 0, Kind: EntryMessage, Message: assistantText("first answer", 2), Created: at(2)},
			{Parent: 1, Kind: EntryMessage, Message: user("the quixotically branched prompt", 3), Created: at(3)},
			{Parent: 1, Kind: EntryContext, Context: []agent.Message{user("summary of it all", 4)}, Created: at(4)},
			{Parent: 3, Kind: EntryMessage, Message: user("second question", 5), Created: at(5)},
		},
		Leaf:    4,
		Pending: []agent.QueueItem{{ID: "q_1", Kind: agent.QueueFollowUp, Text: "later, please", Created: at(6)}},
	}
}

func TestImportSessionKeepsTheTree(t *testing.T) {
	s := openStore(t, t.TempDir())
	ctx := context.Background()
	if err := s.ImportSession(ctx, importFixture()); err != nil {
		t.Fatal(err)
	}
	tree, err := s.LoadTree(ctx, "s_imported")
	entries, leaf := tree.Entries, tree.Leaf
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 5 || leaf != 5 {
		t.Fatalf("%d entries, leaf %d; want 5 and 5", len(entries), leaf)
	}
	parents := []int{0, 1, 2, 2, 4}
	for i, e := range entries {
		if e.Seq != i+1 || e.Parent != parents[i] {
			t.Errorf("entry %d: seq %d parent %d, want %d %d", i, e.Seq, e.Parent, i+1, parents[i])
		}
	}
	got, err := s.LoadTranscript(ctx, "s_imported")
	if err != nil {
		t.Fatal(err)
	}
	assertMessages(t, got, []agent.Message{user("summary of it all", 4), user("second question", 5)})
	ss, err := s.Session(ctx, "s_imported")
	if err != nil {
		t.Fatal(err)
	}
	if ss.Name != "the import" || ss.Title != "first question" || ss.MessageCount != 4 || ss.Owner.Live() {
		t.Errorf("session %+v: want the name kept, the title from the first prompt, 4 messages, no owner", ss)
	}
	hits, err := s.SearchSessions(ctx, "quixotically", "", 5)
	if err != nil || len(hits) != 1 || hits[0].SessionID != "s_imported" {
		t.Errorf("search for the branch's word: %+v, %v", hits, err)
	}
	queued, err := s.PendingInputs(ctx, "s_imported")
	if err != nil || len(queued) != 1 || queued[0].Text != "later, please" {
		t.Errorf("queue %+v, %v", queued, err)
	}
	if _, err := s.ClaimSession(ctx, "s_imported"); err != nil {
		t.Errorf("the imported session cannot be claimed: %v", err)
	}
}

func TestImportSessionRefusesBadInputWholly(t *testing.T) {
	cases := []struct {
		name string
		edit func(*ImportedSession)
		want string
	}{
		{"parent after its child", func(in *ImportedSession) { in.Entries[1].Parent = 3 }, "does not come before it"},
		{"unknown kind", func(in *ImportedSession) { in.Entries[2].Kind = "bookmark" }, `unknown kind "bookmark"`},
		{"a label on nothing", func(in *ImportedSession) {
			in.Entries[2].Kind, in.Entries[2].Marker = EntryLabel, Marker{Target: 99, Label: "x"}
		}, "names entry 99"},
		{"leaf out of range", func(in *ImportedSession) { in.Leaf = 9 }, "leaf 9"},
		{"bad queue kind", func(in *ImportedSession) { in.Pending[0].Kind = "later" }, `kind "later"`},
		{"duplicate queue id", func(in *ImportedSession) { in.Pending = append(in.Pending, in.Pending[0]) }, "queued input q_1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := openStore(t, t.TempDir())
			ctx := context.Background()
			in := importFixture()
			c.edit(&in)
			err := s.ImportSession(ctx, in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
			if _, err := s.Session(ctx, "s_imported"); !errors.Is(err, ErrNotFound) {
				t.Errorf("a refused import left a session: %v", err)
			}
			if hits, _ := s.SearchSessions(ctx, "quixotically", "", 5); len(hits) != 0 {
				t.Errorf("a refused import left search rows: %+v", hits)
			}
		})
	}
}

func TestImportSessionRefusesAnIDInUse(t *testing.T) {
	s := openStore(t, t.TempDir())
	ctx := context.Background()
	if err := s.ImportSession(ctx, importFixture()); err != nil {
		t.Fatal(err)
	}
	if err := s.ImportSession(ctx, importFixture()); err == nil {
		t.Fatal("a second import with the same id was accepted")
	}
	if tree, err := s.LoadTree(ctx, "s_imported"); err != nil || len(tree.Entries) != 5 {
		t.Errorf("the first import changed: %d entries, %v", len(tree.Entries), err)
	}
}
