package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/persistence"
	"github.com/steer-tui/steer/persistence/persisttest/scale"
	"github.com/steer-tui/steer/tui/theme"
)

// The scale targets of issue 27: a session of 10,000 entries opens in
// ≤ 300 ms, and a keystroke's frame costs the same at 10 entries as at
// 10,000 (only visible items are rendered).

// BenchmarkOpenSession10k measures what the user waits for when resuming a
// session of 10,000 entries (`steer --session ID`): the store opens, the
// runner claims and loads the session, and the TUI reads its state and
// produces its first full frame (first-frame). The history above the last
// compaction is read after that frame; whole-history runs on until the
// chat holds it too.
func BenchmarkOpenSession10k(b *testing.B) {
	dir, ws := savedSession(b, 10000)
	for _, whole := range []bool{false, true} {
		name := "first-frame"
		if whole {
			name = "whole-history"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				o := openSaved(b, dir, ws, whole)
				b.StopTimer()
				o.close(b)
				b.StartTimer()
			}
		})
	}
}

// BenchmarkKeystroke10k measures one key typed into the editor and the
// frame that follows, with a session of 10 or 10,000 entries open: the cost
// must not depend on the transcript's length. Keys alternate between a
// letter and backspace so the editor's text stays the same size.
func BenchmarkKeystroke10k(b *testing.B) {
	for _, messages := range []int{10, 10000} {
		b.Run(fmt.Sprint(messages), func(b *testing.B) {
			dir, ws := savedSession(b, messages)
			o := openSaved(b, dir, ws, true)
			defer o.close(b)
			keys := []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune{'a'}}, {Type: tea.KeyBackspace}}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				next, _ := o.m.Update(keys[i%2])
				o.m = next.(Model)
				i++
				if o.m.View() == "" {
					b.Fatal("no frame")
				}
			}
		})
	}
}

// savedSession is a state directory holding session scaleSessionID of
// messages messages (with a compaction every 250, about when a 200k-token window fills), written through the
// store's import, and the session's workspace.
func savedSession(b *testing.B, messages int) (dir, workspace string) {
	b.Helper()
	dir, workspace = b.TempDir(), b.TempDir()
	store, err := persistence.Open(dir, persistence.Options{})
	if err != nil {
		b.Fatal(err)
	}
	s := scale.Session{ID: scaleSessionID, Workspace: workspace, Messages: messages, Topic: "parser",
		CompactEvery: 250, Start: epoch, Model: agenttest.Model.Ref()}
	if err := errors.Join(scale.Import(context.Background(), store, s), store.Close()); err != nil {
		b.Fatal(err)
	}
	return dir, workspace
}

const scaleSessionID = "s_scale"

// opened is the TUI on a saved session, opened as main opens it.
type opened struct {
	m     Model
	host  *runner.Host
	store *persistence.Store
	frame string // the frame openSaved waited for
}

// openSaved opens the store in dir, resumes the saved session through the
// runner and runs the TUI at 120×40 until its first frame shows the
// session's transcript, and when whole until the chat holds the history
// above the last compaction too: the calls' replies are handed to Update
// as the program would.
func openSaved(b *testing.B, dir, workspace string, whole bool) *opened {
	b.Helper()
	ctx := context.Background()
	store, err := persistence.OpenContext(ctx, dir, persistence.Options{})
	if err != nil {
		b.Fatal(err)
	}
	rt, err := runner.New(ctx, runner.Options{
		Providers: []runner.Provider{{Name: "test", Models: []agent.Model{agenttest.Model}, Stream: agenttest.NewScript().Stream}},
		Store:     store, Workspace: workspace, Session: scaleSessionID,
	})
	if err != nil {
		b.Fatal(err)
	}
	o := &opened{host: runner.NewHost(rt), store: store}
	o.m = New(o.host, Options{Theme: theme.Dark(), Profile: termenv.ANSI256})
	next, _ := o.m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	o.m = next.(Model)
	replies := make(chan tea.Msg, 64)
	o.m.calls.start(func(msg tea.Msg) { replies <- msg })
	timeout := time.After(30 * time.Second)
	loaded := func(m Model) bool { // the read of the history above is asked for with the load
		return m.chat.Len() > 0 && (!whole || m.answered[topicEarlier] == m.latest[topicEarlier])
	}
	for !loaded(o.m) {
		select {
		case msg := <-replies:
			next, _ := o.m.Update(msg)
			o.m = next.(Model)
		case <-timeout:
			b.Fatalf("the session did not load; view:\n%s", o.m.View())
		}
	}
	o.frame = o.m.View()
	if !strings.Contains(o.frame, "Fixed in turn") && !strings.Contains(o.frame, "Turn ") {
		b.Fatalf("the first frame shows no transcript:\n%s", o.frame)
	}
	return o
}

// close ends the TUI's calls, the runner and the store.
func (o *opened) close(b *testing.B) {
	b.Helper()
	o.m.calls.stop(time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := errors.Join(o.host.Close(ctx), o.store.CloseContext(ctx)); err != nil {
		b.Fatal(err)
	}
}
