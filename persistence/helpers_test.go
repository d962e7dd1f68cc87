package persistence

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// epoch is where test clocks start.
var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// testClock advances one millisecond per reading, so stored times are distinct
// and round-trip exactly.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *testClock { return &testClock{t: epoch} }

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Millisecond)
	return c.t
}

// at is epoch plus n milliseconds: a timestamp that survives storage.
func at(n int) time.Time { return epoch.Add(time.Duration(n) * time.Millisecond) }

// openStore opens dir with a test clock and closes it when the test ends.
func openStore(t testing.TB, dir string) *Store {
	t.Helper()
	s, err := Open(dir, Options{Now: newClock().Now})
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// fixture is an open store with session "s1" whose active writer is run "r1".
type fixture struct {
	store *Store
	ctx   context.Context
}

const (
	testSession = "s1"
	testRun     = "r1"
)

func newFixture(t testing.TB) fixture {
	t.Helper()
	f := fixture{store: openStore(t, t.TempDir()), ctx: context.Background()}
	if err := f.store.CreateSession(f.ctx, Session{ID: testSession, Workspace: "/work", Model: "m"}); err != nil {
		t.Fatal(err)
	}
	if err := f.store.BeginRun(f.ctx, Run{ID: testRun, SessionID: testSession, Trigger: "user"}); err != nil {
		t.Fatal(err)
	}
	return f
}

// append appends msgs as the test run and fails the test on error.
func (f fixture) append(t testing.TB, msgs ...agent.Message) {
	t.Helper()
	for _, m := range msgs {
		if err := f.store.AppendMessage(f.ctx, testSession, testRun, m); err != nil {
			t.Fatal(err)
		}
	}
}

// transcript loads the test session's transcript.
func (f fixture) transcript(t testing.TB) []agent.Message {
	t.Helper()
	msgs, err := f.store.LoadTranscript(f.ctx, testSession)
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

// session reads the test session.
func (f fixture) session(t testing.TB) Session {
	t.Helper()
	ss, err := f.store.Session(f.ctx, testSession)
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

// assertMessages fails with both sides as JSON when got differs from want.
func assertMessages(t testing.TB, got, want []agent.Message) {
	t.Helper()
	if reflect.DeepEqual(got, want) {
		return
	}
	g, _ := json.MarshalIndent(got, "", "  ")
	w, _ := json.MarshalIndent(want, "", "  ")
	t.Fatalf("messages differ\n got: %s\nwant: %s\n(go values: %#v\n vs %#v)", g, w, got, want)
}

// user, assistant and toolResult build transcript messages.
func user(text string, n int) agent.Message { return agent.UserMessage(text, at(n)) }

func assistantCalls(n int, calls ...agent.Content) agent.Message {
	return agent.Message{
		Role: agent.RoleAssistant, Content: calls, Timestamp: at(n),
		API: "openai-completions", Provider: "scripted", Model: "demo",
		Usage:      agent.Usage{Input: 100, Output: 20, CacheRead: 5, CacheWrite: 1, Cost: agent.Cost{Total: 0.25}},
		StopReason: agent.StopReasonToolUse,
	}
}

func assistantText(text string, n int) agent.Message {
	return agent.Message{
		Role: agent.RoleAssistant, Content: []agent.Content{agent.Text(text)}, Timestamp: at(n),
		API: "openai-completions", Provider: "scripted", Model: "demo",
		Usage:      agent.Usage{Input: 10, Output: 2, Cost: agent.Cost{Total: 0.5}},
		StopReason: agent.StopReasonStop,
	}
}

func toolResult(id, name, text string, n int) agent.Message {
	return agent.Message{
		Role: agent.RoleToolResult, Content: []agent.Content{agent.Text(text)}, Timestamp: at(n),
		ToolCallID: id, ToolName: name,
	}
}

// fileBytes reads a file and fails the test when it cannot.
func fileBytes(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// assertUnchanged fails when the file at path no longer holds want.
func assertUnchanged(t testing.TB, path string, want []byte) {
	t.Helper()
	if got := fileBytes(t, path); !bytes.Equal(got, want) {
		t.Fatalf("%s was modified (%d bytes, was %d)", filepath.Base(path), len(got), len(want))
	}
}
