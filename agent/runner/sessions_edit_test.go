package runner

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// TestRenameSession: the current session is named before its first prompt
// (its row is made then), the name is cleaned and listed, and a name too
// long or a session unknown is refused with a reason.
func TestRenameSession(t *testing.T) {
	store := openStore(t, t.TempDir())
	defer store.Close()
	rt := newRuntime(t, store, agenttest.NewScript(agenttest.Reply().Text("ok").Stop(agent.StopReasonStop)), Options{})
	ctx := context.Background()
	got, err := rt.RenameSession(ctx, "", "  the\tparser   rewrite \n")
	if err != nil || got != "the parser rewrite" {
		t.Fatalf("RenameSession = %q, %v", got, err)
	}
	if err := rt.Prompt(ctx, "hello"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	list, err := rt.ListSessions(ctx)
	if err != nil || len(list) != 1 || list[0].Name != "the parser rewrite" || list[0].Title != "hello" {
		t.Fatalf("ListSessions = %+v, %v", list, err)
	}
	cases := []struct{ name, id, text, want string }{
		{"too long", "", strings.Repeat("x", MaxSessionName+1), "at most 120 characters"},
		{"unknown session", "s_nope", "x", "no saved session s_nope"},
	}
	for _, tc := range cases {
		if _, err := rt.RenameSession(ctx, tc.id, tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := rt.RenameSession(ctx, "s_nope", "x"); !errors.Is(err, ErrNoSavedSession) {
		t.Errorf("unknown session: %v is not ErrNoSavedSession", err)
	}
}

// TestSearchSessionsInTheWorkspace: the book's search finds a word of a
// prompt in its own workspace, and another workspace's only everywhere.
func TestSearchSessionsInTheWorkspace(t *testing.T) {
	store := openStore(t, t.TempDir())
	defer store.Close()
	ctx := context.Background()
	script := func() *agenttest.Script {
		return agenttest.NewScript(agenttest.Reply().Text("ok").Stop(agent.StopReasonStop))
	}
	here := newRuntime(t, store, script(), Options{Workspace: "/here"})
	there := newRuntime(t, store, script(), Options{Workspace: "/there"})
	for _, rt := range []*Runtime{here, there} {
		if err := rt.Prompt(ctx, "zanzibarite in "+rt.Workspace()); err != nil {
			t.Fatal(err)
		}
		waitIdle(t, rt)
	}
	for _, tc := range []struct {
		everywhere bool
		want       int
	}{{false, 1}, {true, 2}} {
		hits, err := here.SearchSessions(ctx, "zanzibarite", tc.everywhere)
		if err != nil || len(hits) != tc.want {
			t.Fatalf("everywhere=%v: %+v, %v; want %d hits", tc.everywhere, hits, err, tc.want)
		}
		if !tc.everywhere && hits[0].SessionID != here.SessionID() {
			t.Fatalf("the workspace's search found %s, want %s", hits[0].SessionID, here.SessionID())
		}
	}
}

// TestDeleteSessionRefusesTheCurrentOne: the current session cannot be
// deleted; one switched away from can, and is gone from the list.
func TestDeleteSessionRefusesTheCurrentOne(t *testing.T) {
	store := openStore(t, t.TempDir())
	defer store.Close()
	ctx := context.Background()
	rt := newRuntime(t, store, agenttest.NewScript(
		agenttest.Reply().Text("one").Stop(agent.StopReasonStop),
		agenttest.Reply().Text("two").Stop(agent.StopReasonStop)), Options{})
	if err := rt.Prompt(ctx, "first"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	first := rt.SessionID()
	if err := rt.DeleteSession(ctx, first); err == nil || !strings.Contains(err.Error(), "is open in this steer") {
		t.Fatalf("deleting the current session: %v", err)
	}
	if err := rt.NewSession(ctx); err != nil {
		t.Fatal(err)
	}
	if err := rt.Prompt(ctx, "second"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	if err := rt.DeleteSession(ctx, first); err != nil {
		t.Fatal(err)
	}
	if list, err := rt.ListSessions(ctx); err != nil || len(list) != 1 || list[0].ID != rt.SessionID() {
		t.Fatalf("after deleting: %+v, %v", list, err)
	}
	if err := rt.DeleteSession(ctx, first); !errors.Is(err, ErrNoSavedSession) {
		t.Fatalf("deleting it again: %v", err)
	}
}
