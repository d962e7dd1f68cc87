package persistence

import (
	"context"
	"fmt"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// searchFixture is a store with sessions of two workspaces, one of which
// has a word only inside an old tool result.
func searchFixture(t testing.TB, sessions int) *Store {
	t.Helper()
	s := openStore(t, t.TempDir())
	ctx := context.Background()
	for i := range sessions {
		id, run := fmt.Sprintf("s%04d", i), fmt.Sprintf("r%04d", i)
		ws := "/a"
		if i%2 == 1 {
			ws = "/b"
		}
		if err := s.CreateSession(ctx, Session{ID: id, Workspace: ws, Title: fmt.Sprintf("session number %d", i)}); err != nil {
			t.Fatal(err)
		}
		if err := s.BeginRun(ctx, Run{ID: run, SessionID: id}); err != nil {
			t.Fatal(err)
		}
		result := "ordinary output of the tool"
		if i == sessions/2 {
			result = "the needle is zanzibarite, found once"
		}
		for _, m := range append(searchMessages(i), toolResult("c1", "read", result, 3), assistantText("done", 4)) {
			if err := s.AppendMessage(ctx, id, run, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	return s
}

// searchMessages are a session's prompt and the call its tool result answers.
func searchMessages(i int) []agent.Message {
	return []agent.Message{user(fmt.Sprintf("please read file %d", i), 1),
		assistantCalls(2, agent.ToolCall("c1", "read", map[string]any{"path": "f.txt"}))}
}

func TestSearchSessions(t *testing.T) {
	s := searchFixture(t, 10)
	ctx := context.Background()
	tests := []struct {
		name, query, workspace string
		want                   []string
	}{
		{"a word only inside one tool result", "zanzibarite", "", []string{"s0005"}},
		{"a prefix", "zanzib", "", []string{"s0005"}},
		{"scoped to the workspace it is not in", "zanzibarite", "/a", nil},
		{"scoped to its workspace", "zanzibarite", "/b", []string{"s0005"}},
		{"every word must match", "zanzibarite ordinary", "", nil},
		{"syntax is taken literally", `"zanzibarite" OR -x`, "", nil},
		{"a title", "number 7", "", []string{"s0007"}},
		{"nothing", "   ", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits, err := s.SearchSessions(ctx, tt.query, tt.workspace, 10)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hits {
				got = append(got, h.SessionID)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("hits %v, want %v (%+v)", got, tt.want, hits)
			}
			if len(hits) == 1 && tt.query == "zanzibarite" && hits[0].Snippet != "the needle is [zanzibarite], found once" {
				t.Errorf("snippet %q", hits[0].Snippet)
			}
		})
	}
}

// BenchmarkSessionSearch1000 is one search over 1,000 sessions (issue 27:
// ≤ 100 ms).
func BenchmarkSessionSearch1000(b *testing.B) {
	s := searchFixture(b, 1000)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		hits, err := s.SearchSessions(ctx, "zanzibarite", "", 20)
		if err != nil || len(hits) != 1 {
			b.Fatalf("%v %v", hits, err)
		}
	}
}
