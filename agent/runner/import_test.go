package runner

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner/export"
	"github.com/steer-tui/steer/persistence"
)

// TestExportImportRoundTrip: a session with a branch, a compaction and a
// queued input, exported as JSONL, read back, imported into another state
// directory and exported again, is the same apart from its id.
func TestExportImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	msg := func(role agent.Role, text string, n int) *agent.Message {
		m := agent.Message{Role: role, Content: []agent.Content{agent.Text(text)}, Timestamp: t0.Add(time.Duration(n) * time.Second)}
		return &m
	}
	src := importedFixture(t0, msg)
	a, err := persistence.Open(t.TempDir(), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	first, err := (&StateView{store: a}).Import(ctx, src, "/w")
	if err != nil {
		t.Fatal(err)
	}
	exported := func(store *persistence.Store, id string) string {
		t.Helper()
		s, err := exportOf(ctx, store, id)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, err := WriteExport(&b, s, "jsonl", nil); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	once := exported(a, first.ID)
	read, err := export.ReadJSONL(strings.NewReader(once), ImportCheck)
	if err != nil {
		t.Fatal(err)
	}
	b, err := persistence.Open(t.TempDir(), persistence.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	second, err := (&StateView{store: b}).Import(ctx, read, "/w")
	if err != nil {
		t.Fatal(err)
	}
	twice := exported(b, second.ID)
	if strings.ReplaceAll(twice, second.ID, first.ID) != once {
		t.Fatalf("the second export differs:\n%s\nvs\n%s", twice, once)
	}
	for _, want := range []string{`"type":"compaction"`, `"context":[`, `"type":"queued"`, "the other branch",
		`"type":"label"`, `"targetId":"3"`, `"type":"branch_summary"`, `"model":"scripted/other"`} {
		if !strings.Contains(once, want) {
			t.Errorf("the export lacks %s:\n%s", want, once)
		}
	}
}

// importedFixture is a session with a branch (b1 beside u2), a compaction,
// markers (a label on the other branch's entry, a branch summary, a model
// change) and a queued input.
func importedFixture(t0 time.Time, msg func(agent.Role, string, int) *agent.Message) export.Session {
	return export.Session{ID: "s_orig", Title: "t", Name: "n", Model: "scripted/echo", Created: t0, Leaf: "m1",
		Entries: []export.Entry{
			{ID: "u1", Type: export.TypeMessage, Message: msg(agent.RoleUser, "hello", 1), Time: t0},
			{ID: "a1", ParentID: "u1", Type: export.TypeMessage, Message: msg(agent.RoleAssistant, "hi", 2), Time: t0},
			{ID: "b1", ParentID: "a1", Type: export.TypeMessage, Message: msg(agent.RoleUser, "the other branch", 3), Time: t0},
			{ID: "k1", ParentID: "a1", Type: export.TypeCompaction, Context: []agent.Message{*msg(agent.RoleUser, "summary", 4)}, Time: t0},
			{ID: "u2", ParentID: "k1", Type: export.TypeMessage, Message: msg(agent.RoleUser, "go on", 5), Time: t0},
			{ID: "l1", ParentID: "u2", Type: export.TypeLabel, TargetID: "b1", Label: "tried", Time: t0},
			{ID: "s1", ParentID: "l1", Type: export.TypeBranchSummary, Summary: "the branch left", Time: t0},
			{ID: "m1", ParentID: "s1", Type: export.TypeModelChange, Model: "scripted/other", Time: t0},
		},
		Queue: []agent.QueueItem{{ID: "q1", Kind: agent.QueueSteer, Text: "later", Created: t0}},
	}
}
