package persistence

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// everyKind is a transcript that uses every content kind and message field.
func everyKind() []agent.Message {
	img := agent.Content{Type: agent.ContentImage, MimeType: "image/png", Data: "iVBORw0KGgo="}
	return []agent.Message{
		{Role: agent.RoleUser, Content: []agent.Content{agent.Text("look <at> this & that"), img}, Timestamp: at(1), QueueItemID: "q_1"},
		{
			Role: agent.RoleAssistant, Timestamp: at(2),
			Content: []agent.Content{
				{Type: agent.ContentThinking, Thinking: "let me think", Signature: "sig-abc=="},
				{Type: agent.ContentThinking, Signature: "encrypted", Redacted: true},
				agent.Text("I will run two tools."),
				agent.ToolCall("call_1", "bash", map[string]any{"command": "ls -la", "timeout": float64(30)}),
				agent.ToolCall("call_2", "edit", map[string]any{
					"path": "a.go", "edits": []any{map[string]any{"old": "x", "new": "y"}}, "dry": true,
				}),
			},
			API: "anthropic-messages", Provider: "anthropic", Model: "claude",
			Usage: agent.Usage{
				Input: 1200, Output: 80, CacheRead: 300, CacheWrite: 40,
				Cost: agent.Cost{Input: 0.1, Output: 0.2, CacheRead: 0.01, CacheWrite: 0.02, Total: 0.33},
			},
			StopReason: agent.StopReasonToolUse,
		},
		{
			Role: agent.RoleToolResult, Timestamp: at(3), ToolCallID: "call_1", ToolName: "bash",
			Content: []agent.Content{agent.Text("total 0\n"), img},
			Details: map[string]any{"exitCode": float64(0), "truncated": false, "lines": []any{"a", "b"}},
		},
		{
			Role: agent.RoleToolResult, Timestamp: at(4), ToolCallID: "call_2", ToolName: "edit",
			Content: []agent.Content{agent.Text("no match")}, IsError: true,
		},
		{
			Role: agent.RoleAssistant, Timestamp: at(5), Content: []agent.Content{},
			API: "anthropic-messages", Provider: "anthropic", Model: "claude",
			StopReason: agent.StopReasonError, ErrorMessage: "529 overloaded_error: Overloaded",
			Error: &agent.ProviderError{
				Kind: agent.ErrorHTTP, Status: 529, Type: "overloaded_error", Code: "c",
				Message: "Overloaded", Body: `{"type":"error"}`,
			},
		},
		user("plain text only, ünïcödé ✓", 6),
	}
}

func TestLoadTranscriptRoundTripsEveryKind(t *testing.T) {
	f := newFixture(t)
	want := everyKind()
	f.append(t, want...)
	assertMessages(t, f.transcript(t), want)

	// The rewrite path stores the same way.
	if err := f.store.RewriteTranscript(f.ctx, testSession, testRun, want[1:]); err != nil {
		t.Fatal(err)
	}
	assertMessages(t, f.transcript(t), want[1:])
}

func TestLoadTranscriptOfUnknownSession(t *testing.T) {
	f := newFixture(t)
	if msgs := f.transcript(t); msgs != nil {
		t.Errorf("an empty session loads %v", msgs)
	}
	if _, err := f.store.LoadTranscript(f.ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown session gave %v, want ErrNotFound", err)
	}
}

func TestAppendUpdatesTheSession(t *testing.T) {
	f := newFixture(t)
	long := "  Please   refactor\nthe persistence layer so that every write goes through one path and nothing else  "
	f.append(t, assistantText("preamble", 1), user(long, 2), assistantCalls(3, agent.ToolCall("c", "ls", nil)),
		user("second question", 4), assistantText("done", 5))
	ss := f.session(t)
	wantTitle := "Please refactor the persistence layer so that every write g…"
	if ss.Title != wantTitle {
		t.Errorf("title %q, want %q", ss.Title, wantTitle)
	}
	if ss.MessageCount != 5 || ss.InputTokens != 10+106+10 || ss.OutputTokens != 2+20+2 {
		t.Errorf("counters %+v", ss)
	}
	if ss.Cost != 1.25 {
		t.Errorf("cost %v, want 1.25", ss.Cost)
	}
	if !ss.Updated.After(ss.Created) {
		t.Errorf("updated %v not after created %v", ss.Updated, ss.Created)
	}
}

func TestTitleFrom(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"  \n\t ", ""},
		{"fix the bug", "fix the bug"},
		{"line one\nline two", "line one line two"},
		{strings.Repeat("é", 60), strings.Repeat("é", 60)},
		{strings.Repeat("é", 61), strings.Repeat("é", 59) + "…"},
	}
	for _, tt := range tests {
		if got := titleFrom(tt.in); got != tt.want {
			t.Errorf("titleFrom(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestFencing checks that only the session's active writer can write, and that
// a refused write leaves everything as it was.
func TestFencing(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, f fixture)
		writer  string
		session string
		wantErr error
	}{
		{name: "active writer", writer: testRun},
		{name: "superseded by a new run", writer: testRun, wantErr: ErrStaleWriter,
			setup: func(t *testing.T, f fixture) { beginRun(t, f, "r2") }},
		{name: "the superseding run", writer: "r2",
			setup: func(t *testing.T, f fixture) { beginRun(t, f, "r2") }},
		{name: "ended run", writer: testRun, wantErr: ErrStaleWriter,
			setup: func(t *testing.T, f fixture) { endRun(t, f, testRun) }},
		{name: "a run that never began", writer: "r9", wantErr: ErrStaleWriter},
		{name: "no writer named", writer: "", wantErr: ErrStaleWriter},
		{name: "unknown session", writer: testRun, session: "nope", wantErr: ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.append(t, user("first", 1))
			addPending(t, f, "q_1")
			if tt.setup != nil {
				tt.setup(t, f)
			}
			session := tt.session
			if session == "" {
				session = testSession
			}
			before, beforeMsgs := f.session(t), f.transcript(t)
			msg := user("queued", 2)
			msg.QueueItemID = "q_1"

			errAppend := f.store.AppendMessage(f.ctx, session, tt.writer, msg)
			errRewrite := f.store.RewriteTranscript(f.ctx, session, tt.writer, nil)
			_, errRepair := f.store.RepairSession(f.ctx, session, tt.writer)
			if tt.wantErr == nil {
				if errAppend != nil || errRewrite != nil || errRepair != nil {
					t.Fatalf("append %v, rewrite %v, repair %v", errAppend, errRewrite, errRepair)
				}
				return
			}
			for what, err := range map[string]error{"append": errAppend, "rewrite": errRewrite} {
				if !errors.Is(err, tt.wantErr) {
					t.Errorf("%s gave %v, want %v", what, err, tt.wantErr)
				}
			}
			if errors.Is(tt.wantErr, ErrNotFound) && !errors.Is(errRepair, ErrNotFound) {
				t.Errorf("repair gave %v", errRepair)
			}
			if after := f.session(t); after != before {
				t.Errorf("a refused write changed the session:\n%+v\n%+v", before, after)
			}
			assertMessages(t, f.transcript(t), beforeMsgs)
			if items := pending(t, f); len(items) != 1 {
				t.Errorf("a refused write retired the pending input: %v", items)
			}
		})
	}
}

func TestEndRun(t *testing.T) {
	f := newFixture(t)
	beginRun(t, f, "r2")
	// Ending a superseded run does not unseat the current writer.
	if err := f.store.EndRun(f.ctx, testRun, "superseded", "", time.Time{}); err != nil {
		t.Fatal(err)
	}
	if err := f.store.AppendMessage(f.ctx, testSession, "r2", user("still mine", 1)); err != nil {
		t.Fatalf("r2 lost the session when r1 ended: %v", err)
	}
	ended := at(100)
	if err := f.store.EndRun(f.ctx, "r2", "error", "provider down", ended); err != nil {
		t.Fatal(err)
	}
	r, err := f.store.Run(f.ctx, "r2")
	if err != nil {
		t.Fatal(err)
	}
	if r.SessionID != testSession || r.Trigger != "user" || r.Outcome != "error" || r.Error != "provider down" ||
		!r.Ended.Equal(ended) || r.Started.IsZero() {
		t.Errorf("run record %+v", r)
	}
	if err := f.store.AppendMessage(f.ctx, testSession, "r2", user("late", 2)); !errors.Is(err, ErrStaleWriter) {
		t.Errorf("an ended run's append gave %v", err)
	}
	if err := f.store.EndRun(f.ctx, "nope", "", "", ended); !errors.Is(err, ErrNotFound) {
		t.Errorf("ending an unknown run gave %v", err)
	}
	if _, err := f.store.Run(f.ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("reading an unknown run gave %v", err)
	}
	if err := f.store.BeginRun(f.ctx, Run{ID: "r3", SessionID: "nope"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("a run on an unknown session gave %v", err)
	}
}

func TestRewriteTranscriptKeepsTheHistory(t *testing.T) {
	f := newFixture(t)
	f.append(t, user("one", 1), assistantText("two", 2), user("three", 3), assistantText("four", 4))
	before := f.session(t)
	summary := []agent.Message{user("summary of one..three", 10), assistantText("four", 11)}
	if err := f.store.RewriteTranscript(f.ctx, testSession, testRun, summary); err != nil {
		t.Fatal(err)
	}
	assertMessages(t, f.transcript(t), summary)
	after := f.session(t)
	if after.MessageCount != before.MessageCount || after.Cost != before.Cost || after.InputTokens != before.InputTokens ||
		after.Title != before.Title {
		t.Errorf("session after the rewrite %+v (before %+v)", after, before)
	}
	// Appends continue after the context entry.
	f.append(t, user("five", 12))
	if got := f.transcript(t); len(got) != 3 || got[2].TextContent() != "five" {
		t.Errorf("transcript after an append %v", got)
	}
	history, err := f.store.LoadHistory(f.ctx, testSession)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"message:one", "message:two", "message:three", "message:four", "context:2", "message:five"}
	if got := entryShapes(history); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("history = %q, want %q", got, want)
	}
	for i, e := range history {
		if e.Seq != i+1 || e.Parent != i {
			t.Errorf("entry %d: seq %d parent %d, want a single branch", i, e.Seq, e.Parent)
		}
	}
}

// TestContextIsTheLatestContextEntryOn: after two rewrites the model sees
// the second's messages and what came after; the history holds every entry.
func TestContextIsTheLatestContextEntryOn(t *testing.T) {
	f := newFixture(t)
	f.append(t, user("a", 1), assistantText("b", 2))
	if err := f.store.RewriteTranscript(f.ctx, testSession, testRun, []agent.Message{user("sum1", 3)}); err != nil {
		t.Fatal(err)
	}
	f.append(t, user("c", 4), assistantText("d", 5))
	second := []agent.Message{user("sum2", 6), assistantText("d", 7)}
	if err := f.store.RewriteTranscript(f.ctx, testSession, testRun, second); err != nil {
		t.Fatal(err)
	}
	f.append(t, user("e", 8))
	assertMessages(t, f.transcript(t), append(second, user("e", 8)))
	history, err := f.store.LoadHistory(f.ctx, testSession)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"message:a", "message:b", "context:1", "message:c", "message:d", "context:2", "message:e"}
	if got := entryShapes(history); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("history = %q, want %q", got, want)
	}
	if err := f.store.RewriteTranscript(f.ctx, testSession, "stale", nil); !errors.Is(err, ErrStaleWriter) {
		t.Errorf("a stale writer's rewrite gave %v", err)
	}
}

// entryShapes names each entry: its kind and its text, or a context
// entry's length.
func entryShapes(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		if e.Kind == EntryContext {
			out[i] = fmt.Sprintf("context:%d", len(e.Context))
			continue
		}
		out[i] = string(e.Kind) + ":" + e.Message.TextContent()
	}
	return out
}

func beginRun(t *testing.T, f fixture, id string) {
	t.Helper()
	if err := f.store.BeginRun(f.ctx, Run{ID: id, SessionID: testSession, Trigger: "user"}); err != nil {
		t.Fatal(err)
	}
}

func endRun(t *testing.T, f fixture, id string) {
	t.Helper()
	if err := f.store.EndRun(f.ctx, id, "completed", "", time.Time{}); err != nil {
		t.Fatal(err)
	}
}
