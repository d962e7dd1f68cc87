package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/persistence"
	"github.com/steer-tui/steer/tui/theme"
)

// savedSession writes a session of n entries into a store under b's temp
// directory, through the store's import (the path `steer sessions import`
// takes, search index included): turns of a prompt, an answer that calls
// read, its 2 KB result and a Markdown answer with code, with a compaction
// half-way, so that a resumed session has history above its context.
func savedSession(b *testing.B, n int) (*persistence.Store, string) {
	b.Helper()
	store, err := persistence.Open(b.TempDir(), persistence.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	at := fixedClock()
	body := strings.Repeat("line of a file the tool read, long enough to wrap once or twice\n", 32)
	in := persistence.ImportedSession{Session: persistence.Session{ID: "s_big", Workspace: "/ws", Title: "big", Created: at}}
	for i := 0; i < n; i++ {
		var e persistence.ImportedEntry
		switch {
		case i == n/2:
			e = persistence.ImportedEntry{Kind: persistence.EntryContext, Context: []agent.Message{
				agent.UserMessage("summary of the first half", at), assistant("kept answer")}}
		case i%4 == 0:
			e = persistence.ImportedEntry{Kind: persistence.EntryMessage, Message: agent.UserMessage(fmt.Sprintf("question %d: read the file", i), at)}
		case i%4 == 1:
			e = persistence.ImportedEntry{Kind: persistence.EntryMessage, Message: agent.Message{Role: agent.RoleAssistant,
				Content:    []agent.Content{agent.Text("Reading it."), agent.ToolCall(fmt.Sprintf("c%d", i), "read", map[string]any{"path": "f.go"})},
				StopReason: agent.StopReasonToolUse}}
		case i%4 == 2:
			e = persistence.ImportedEntry{Kind: persistence.EntryMessage, Message: agent.Message{Role: agent.RoleToolResult,
				ToolCallID: fmt.Sprintf("c%d", i-1), ToolName: "read", Content: []agent.Content{agent.Text(body)}}}
		default:
			e = persistence.ImportedEntry{Kind: persistence.EntryMessage, Message: assistant(finishedAnswer(i))}
		}
		e.Parent, e.Created = i-1, at
		in.Entries = append(in.Entries, e)
	}
	in.Leaf = n - 1
	if err := store.ImportSession(context.Background(), in); err != nil {
		b.Fatal(err)
	}
	return store, "s_big"
}

// openSaved resumes session id as steer does at start (--session): the
// runtime reads it, the TUI loads it and draws its first frame.
func openSaved(b *testing.B, store *persistence.Store, id string) (Model, *runner.Runtime) {
	b.Helper()
	rt, err := runner.New(context.Background(), runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: agenttest.NewScript().Stream}},
		Store:     store, Workspace: "/ws", Session: id, Now: agenttest.Clock,
	})
	if err != nil {
		b.Fatal(err)
	}
	m := New(rt, Options{Theme: theme.Dark(), Profile: termenv.ANSI256, Now: fixedClock})
	m = benchUpdate(m, tea.WindowSizeMsg{Width: 120, Height: 40})
	m = benchUpdate(m, loadSession(rt, "", "")())
	if v := m.View(); !strings.Contains(v, "Answer") {
		b.Fatalf("the session did not show:\n%s", v)
	}
	return m, rt
}

func closeRuntime(b *testing.B, rt *runner.Runtime) {
	if err := rt.Close(context.Background()); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkOpenSession10k is what a user waits for when resuming a session
// of 10,000 entries: the runtime opening it and the TUI's first frame.
func BenchmarkOpenSession10k(b *testing.B) {
	store, id := savedSession(b, 10_000)
	b.ReportAllocs()
	for b.Loop() {
		_, rt := openSaved(b, store, id)
		b.StopTimer()
		closeRuntime(b, rt)
		b.StartTimer()
	}
}

// BenchmarkKeystroke10k is one key typed into the editor and the frame it
// gives, with a session of 10 or 10,000 entries open: the cost must not
// grow with the history.
func BenchmarkKeystroke10k(b *testing.B) {
	for _, n := range []int{10, 10_000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			store, id := savedSession(b, n)
			m, rt := openSaved(b, store, id)
			defer closeRuntime(b, rt)
			keys := []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("a")}, {Type: tea.KeyBackspace}}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				m = benchUpdate(m, keys[i%2])
				_ = m.View()
				i++
			}
		})
	}
}
