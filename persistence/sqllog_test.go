package persistence

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// TestStatementLog: at debug every statement is a record naming its
// connection, prepared ones (the transcript's inserts) and the transaction
// around them too, without the arguments; at info nothing is logged.
func TestStatementLog(t *testing.T) {
	for _, c := range []struct {
		name  string
		level slog.Level
		want  []string // statements that must be among the records
	}{
		{"debug", slog.LevelDebug, []string{"BEGIN", "PRAGMA user_version", "INSERT INTO transcript_entries", "COMMIT", "PRAGMA data_version"}},
		{"info", slog.LevelInfo, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: c.level}))
			s, err := Open(t.TempDir(), Options{Now: newClock().Now, Log: log})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			if err := s.CreateSession(ctx, Session{ID: testSession, Workspace: "/work", Model: "m"}); err != nil {
				t.Fatal(err)
			}
			if err := s.BeginRun(ctx, Run{ID: testRun, SessionID: testSession, Trigger: "user"}); err != nil {
				t.Fatal(err)
			}
			if err := s.AppendMessage(ctx, testSession, testRun, agent.UserMessage("a secret prompt", at(1))); err != nil {
				t.Fatal(err)
			}
			if _, err := s.DataVersion(ctx); err != nil {
				t.Fatal(err)
			}
			if c.want == nil {
				if buf.Len() != 0 {
					t.Fatalf("at info: %s", buf.String())
				}
				return
			}
			if strings.Contains(buf.String(), "a secret prompt") {
				t.Fatal("a statement's arguments are logged")
			}
			var stmts []string
			for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
				var rec struct{ Level, Msg, Conn, Stmt string }
				if err := json.Unmarshal([]byte(line), &rec); err != nil {
					t.Fatalf("%q: %v", line, err)
				}
				if rec.Level != "DEBUG" || rec.Msg != "sqlite" || rec.Conn == "" || rec.Stmt == "" {
					t.Fatalf("record %q", line)
				}
				stmts = append(stmts, rec.Stmt)
			}
			all := strings.Join(stmts, "\n")
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("no statement %q among\n%s", w, all)
				}
			}
		})
	}
}

func TestOneLine(t *testing.T) {
	long := "SELECT " + strings.Repeat("é", stmtLogMax) // two bytes a rune
	for _, c := range []struct{ in, want string }{
		{"SELECT a\n\t  FROM b\n", "SELECT a FROM b"},
		{long, long[:stmtLogMax-1] + "…"},
	} {
		if got := oneLine(c.in); got != c.want {
			t.Errorf("oneLine(%.20q…) = %q, want %q", c.in, got, c.want)
		}
	}
}
