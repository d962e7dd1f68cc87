package persistence

import (
	"errors"
	"reflect"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func addPending(t *testing.T, f fixture, id string) agent.QueueItem {
	t.Helper()
	it := agent.QueueItem{ID: id, Kind: agent.QueueSteer, Text: "steer " + id}
	if err := f.store.AddPendingInput(f.ctx, testSession, it); err != nil {
		t.Fatal(err)
	}
	return it
}

func pending(t *testing.T, f fixture) []agent.QueueItem {
	t.Helper()
	items, err := f.store.PendingInputs(f.ctx, testSession)
	if err != nil {
		t.Fatal(err)
	}
	return items
}

func TestPendingInputsSurviveReopening(t *testing.T) {
	f := newFixture(t)
	img := agent.Content{Type: agent.ContentImage, MimeType: "image/jpeg", Data: "/9j/4AAQ"}
	want := []agent.QueueItem{
		{ID: "q_a", Kind: agent.QueueSteer, Text: "look at the tests first", Created: at(1)},
		{ID: "q_b", Kind: agent.QueueFollowUp, Text: "then write docs", Images: []agent.Content{img}, Created: at(2)},
		{ID: "q_c", Kind: agent.QueueSteer, Text: "", Created: at(2)},
		{ID: "q_d", Kind: agent.QueueFollowUp, Text: "and commit", Created: at(3)},
		{ID: "q_e", Kind: agent.QueueShell, Text: "go test ./...", Created: at(4)},
		{ID: "q_f", Kind: agent.QueueShellPrivate, Text: "git status", Created: at(5)},
	}
	for _, it := range want {
		if err := f.store.AddPendingInput(f.ctx, testSession, it); err != nil {
			t.Fatal(err)
		}
	}
	dir := f.store.Dir()
	if err := f.store.Close(); err != nil {
		t.Fatal(err)
	}
	f.store = openStore(t, dir)
	if got := pending(t, f); !reflect.DeepEqual(got, want) {
		t.Fatalf("after reopening:\n got %+v\nwant %+v", got, want)
	}
}

// TestDeliveryRetiresThePendingInput checks that the append of the message
// that delivers a queued input deletes it in the same transaction.
func TestDeliveryRetiresThePendingInput(t *testing.T) {
	f := newFixture(t)
	a, b := addPending(t, f, "q_a"), addPending(t, f, "q_b")
	msg := user(a.Text, 1)
	msg.QueueItemID = a.ID
	f.append(t, msg)
	if got := pending(t, f); len(got) != 1 || got[0].ID != b.ID {
		t.Fatalf("pending after delivering %s: %+v", a.ID, got)
	}
	if got := f.transcript(t); len(got) != 1 || got[0].QueueItemID != a.ID {
		t.Fatalf("transcript %+v", got)
	}

	// Close and reopen: exactly one copy of each input exists somewhere.
	dir := f.store.Dir()
	f.store.Close()
	f.store = openStore(t, dir)
	if got := pending(t, f); len(got) != 1 || got[0].ID != b.ID {
		t.Fatalf("pending after reopening: %+v", got)
	}
	if got := f.transcript(t); len(got) != 1 {
		t.Fatalf("transcript after reopening: %+v", got)
	}
}

func TestRemovePendingInput(t *testing.T) {
	f := newFixture(t)
	addPending(t, f, "q_a")
	for range 2 { // the second removal finds nothing, which is fine
		if err := f.store.RemovePendingInput(f.ctx, testSession, "q_a"); err != nil {
			t.Fatal(err)
		}
	}
	if got := pending(t, f); len(got) != 0 {
		t.Fatalf("pending %+v", got)
	}
}

func TestAddPendingInputRefusesBadItems(t *testing.T) {
	f := newFixture(t)
	addPending(t, f, "q_dup")
	tests := []struct {
		name    string
		session string
		item    agent.QueueItem
		is      error
	}{
		{"no id", testSession, agent.QueueItem{Kind: agent.QueueSteer}, nil},
		{"unknown kind", testSession, agent.QueueItem{ID: "q", Kind: "later"}, nil},
		{"duplicate id", testSession, agent.QueueItem{ID: "q_dup", Kind: agent.QueueSteer}, nil},
		{"unknown session", "nope", agent.QueueItem{ID: "q", Kind: agent.QueueSteer}, ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := f.store.AddPendingInput(f.ctx, tt.session, tt.item)
			if err == nil || tt.is != nil && !errors.Is(err, tt.is) {
				t.Fatalf("got %v", err)
			}
		})
	}
	if got := pending(t, f); len(got) != 1 {
		t.Fatalf("pending %+v", got)
	}
}
