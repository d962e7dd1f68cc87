package persistence

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

func TestSessions(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	create := []Session{
		{ID: "a1", Workspace: "/a", Model: "m1", Created: at(-4)},
		{ID: "b1", Workspace: "/b", Created: at(-3)},
		{ID: "a2", Workspace: "/a", Title: "named", Created: at(-2)},
		{ID: "a3", Workspace: "/a", Created: at(-2)}, // same time as a2: the later one lists first
	}
	for _, ss := range create {
		if err := s.CreateSession(ctx, ss); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateSession(ctx, Session{ID: "a1"}); err == nil {
		t.Error("a duplicate id was accepted")
	}
	if err := s.CreateSession(ctx, Session{}); err == nil {
		t.Error("an empty id was accepted")
	}
	// Activity (the store clock starts after every Created above) moves a1 to
	// the top.
	if err := s.BeginRun(ctx, Run{ID: "r", SessionID: "a1"}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendMessage(ctx, "a1", "r", user("hello", 10)); err != nil {
		t.Fatal(err)
	}

	ids := func(list []Session) []string {
		var out []string
		for _, ss := range list {
			out = append(out, ss.ID)
		}
		return out
	}
	tests := []struct {
		name string
		opts ListOptions
		want []string
	}{
		{"all", ListOptions{}, []string{"a1", "a3", "a2", "b1"}},
		{"one workspace", ListOptions{Workspace: "/a"}, []string{"a1", "a3", "a2"}},
		{"limited", ListOptions{Workspace: "/a", Limit: 2}, []string{"a1", "a3"}},
		{"unknown workspace", ListOptions{Workspace: "/z"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			list, err := s.ListSessions(ctx, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(list); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}

	latest, err := s.LatestSession(ctx, "/b")
	if err != nil || latest.ID != "b1" || !latest.Created.Equal(at(-3)) || !latest.Updated.Equal(at(-3)) {
		t.Errorf("LatestSession(/b) = %+v, %v", latest, err)
	}
	if _, err := s.LatestSession(ctx, "/z"); !errors.Is(err, ErrNotFound) {
		t.Errorf("LatestSession of an empty workspace gave %v", err)
	}

	if err := s.SetSessionTitle(ctx, "a1", "Renamed"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSessionModel(ctx, "a1", "m2"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Session(ctx, "a1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "Renamed" || got.Model != "m2" || got.Workspace != "/a" || got.MessageCount != 1 {
		t.Errorf("session %+v", got)
	}
	for name, err := range map[string]error{
		"Session":         func() error { _, err := s.Session(ctx, "nope"); return err }(),
		"SetSessionTitle": s.SetSessionTitle(ctx, "nope", "x"),
		"SetSessionModel": s.SetSessionModel(ctx, "nope", "x"),
	} {
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("%s of an unknown session gave %v", name, err)
		}
	}
}
