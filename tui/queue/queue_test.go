package queue

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/theme"
)

func update(items ...agent.QueueItem) msgs.RunEventMsg {
	return msgs.RunEventMsg{Events: []agent.Event{agent.QueueUpdate{Items: items}}}
}

func TestStripFollowsQueueUpdatesByID(t *testing.T) {
	m := New(Deps{Styles: theme.NewStyles(theme.Plain()).Queue, Keys: DefaultKeyMap()})
	m.SetSize(60, 4)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a := agent.QueueItem{ID: "a", Kind: agent.QueueSteer, Text: "same text", Created: t0}
	b := agent.QueueItem{ID: "b", Kind: agent.QueueFollowUp, Text: "same text", Created: t0.Add(time.Second)}
	m, _ = m.Update(update(a, b))
	if got := m.View(); !strings.Contains(got, "steer     › same text") || !strings.Contains(got, "follow-up › same text") {
		t.Fatalf("strip:\n%s", got)
	}
	if n, _ := m.Newest(); n.ID != "b" {
		t.Fatalf("newest = %q, want b", n.ID)
	}
	m, _ = m.Update(update(b)) // a was injected: the same text stays, as b
	if m.Height() != 1 || !strings.Contains(m.View(), "follow-up") {
		t.Fatalf("after injecting a:\n%s", m.View())
	}
	m, _ = m.Update(update())
	if m.View() != "" || m.Height() != 0 {
		t.Fatalf("an empty queue shows %q", m.View())
	}
}

func TestStripKeys(t *testing.T) {
	m := New(Deps{Styles: theme.NewStyles(theme.Plain()).Queue, Keys: DefaultKeyMap()})
	m, _ = m.Update(update(agent.QueueItem{ID: "a", Text: "one"}, agent.QueueItem{ID: "b", Text: "two"}))
	m.Focus()
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyUp})
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyDelete})
	if got := cmd(); got != (msgs.DropQueuedMsg{ID: "a"}) {
		t.Fatalf("delete sent %#v", got)
	}
	_, cmd = m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if got := cmd(); got != (msgs.TakeBackMsg{ID: "a"}) {
		t.Fatalf("enter sent %#v", got)
	}
}

func TestStripCapsItsHeight(t *testing.T) {
	m := New(Deps{Styles: theme.NewStyles(theme.Plain()).Queue, Keys: DefaultKeyMap()})
	m.SetSize(60, 3)
	var items []agent.QueueItem
	for _, id := range []string{"1", "2", "3", "4", "5"} {
		items = append(items, agent.QueueItem{ID: id, Text: "item " + id})
	}
	m, _ = m.Update(update(items...))
	if m.Height() != 3 || !strings.Contains(m.View(), "… 3 more queued") || !strings.Contains(m.View(), "item 5") {
		t.Fatalf("strip:\n%s", m.View())
	}
}
