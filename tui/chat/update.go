package chat

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
)

// Update folds a message into the transcript. Keys count only while the chat
// has the focus; runtime events, scrolling and toggles are the chat's own
// and arrive whatever has the focus.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case msgs.RunEventMsg:
		for _, ev := range msg.Events {
			m.apply(ev)
		}
	case msgs.SessionLoadedMsg:
		m.load(msg.Earlier, msg.Messages, msg.Running, msg.Subagents)
		m.awaitEarlier(msg.EarlierSaved)
		if msg.Note != "" {
			m.add(&noticeItem{text: msg.Note})
		}
		if msg.Streaming != nil { // a running session switched to: its answer so far
			m.startMessage(*msg.Streaming)
			m.toolCalls(*msg.Streaming)
		}
	case msgs.EarlierLoadedMsg:
		if msg.Before == "" || msg.Before != m.t.earlierSaved {
			return m, nil // not the history this transcript was loaded without
		}
		m.t.earlierSaved = ""
		m.prepend(msg.Entries, msg.Err)
	case msgs.NoteMsg:
		kind := noticeInfo
		if msg.IsError {
			kind = noticeError
		}
		m.add(&noticeItem{text: msg.Text, kind: kind})
	case msgs.ScrollMsg:
		m.handleScroll(msg)
	case msgs.ToggleToolsMsg:
		m.toggleAll(func(it item) bool { _, ok := it.(*toolItem); return ok })
	case msgs.ToggleThinkingMsg:
		m.toggleAll(func(it item) bool { a, ok := it.(*assistantItem); return ok && a.thinking != "" })
	case tea.KeyMsg:
		if !m.focused {
			return m, nil
		}
		if key.Matches(msg, m.d.Keys.Copy) {
			return m, m.copySelected()
		}
		m.handleKey(msg)
	default:
		return m, nil
	}
	m.compose()
	return m, nil
}

func (m *Model) handleScroll(msg msgs.ScrollMsg) {
	switch {
	case msg.ToEnd:
		m.follow, m.unseen = true, false
	case msg.Pages != 0:
		m.scroll(msg.Pages * max(m.height-1, 1))
	default:
		m.scroll(msg.Lines)
	}
}

func (m *Model) handleKey(msg tea.KeyMsg) {
	switch {
	case key.Matches(msg, m.d.Keys.Prev):
		from := m.selected
		if from < 0 {
			from = len(m.t.entries)
		}
		if i := m.prevExpander(from); i >= 0 {
			m.selected = i
			m.reveal(i)
		} else {
			m.scroll(-1)
		}
	case key.Matches(msg, m.d.Keys.Next):
		if i := m.nextExpander(m.selected); i >= 0 && m.selected >= 0 {
			m.selected = i
			m.reveal(i)
		} else {
			m.scroll(1)
		}
	case key.Matches(msg, m.d.Keys.Toggle):
		if x, ok := m.expanderAt(m.selected); ok {
			x.setExpanded(!x.expanded())
			m.touch(x)
			m.reveal(m.selected)
		}
	case key.Matches(msg, m.d.Keys.Top):
		m.follow, m.top = false, anchor{}
	case key.Matches(msg, m.d.Keys.Bottom):
		m.follow, m.unseen = true, false
	case key.Matches(msg, m.d.Keys.LineUp):
		m.scroll(-1)
	case key.Matches(msg, m.d.Keys.LineDown):
		m.scroll(1)
	}
}

// toggleAll expands every item match accepts, or collapses them all when
// they are all expanded. It walks the whole transcript but renders nothing:
// items re-render lazily when they come into view.
func (m *Model) toggleAll(match func(item) bool) {
	open := true
	for _, e := range m.t.entries {
		if x, ok := e.it.(expander); ok && match(e.it) && !x.expanded() {
			open = false
			break
		}
	}
	for _, e := range m.t.entries {
		if x, ok := e.it.(expander); ok && match(e.it) && x.expanded() != !open {
			x.setExpanded(!open)
			e.dirty = true
		}
	}
}

func (m *Model) expanderAt(i int) (expander, bool) {
	if i < 0 || i >= len(m.t.entries) {
		return nil, false
	}
	x, ok := m.t.entries[i].it.(expander)
	if a, isA := x.(*assistantItem); isA && a.thinking == "" {
		return nil, false
	}
	return x, ok
}

// prevExpander returns the nearest expandable item before i, or -1.
func (m *Model) prevExpander(i int) int {
	for j := min(i, len(m.t.entries)) - 1; j >= 0; j-- {
		if _, ok := m.expanderAt(j); ok {
			return j
		}
	}
	return -1
}

// nextExpander returns the nearest expandable item after i, or -1.
func (m *Model) nextExpander(i int) int {
	for j := i + 1; j < len(m.t.entries); j++ {
		if _, ok := m.expanderAt(j); ok {
			return j
		}
	}
	return -1
}

// load replaces the transcript with items built from saved messages; running
// says that the session's run goes on (calls without results are running),
// children where its sub-agents stand.
func (m *Model) load(earlier []runner.HistoryEntry, messages []agent.Message, running bool, children []runner.SubagentProgress) {
	m.reset()
	for _, p := range children {
		m.t.children[p.SessionID] = p.Summary()
	}
	m.loadEarlier(earlier)
	for _, msg := range messages {
		m.loadMessage(msg)
	}
	for t := range m.t.active {
		if running { // a session switched to mid-run: its calls run now
			t.state, t.started = toolRunning, m.d.Now()
			continue
		}
		settleLoaded(t)
		delete(m.t.active, t)
	}
}

// settleLoaded closes a loaded tool call that is not running: one without a
// result never ran.
func settleLoaded(t *toolItem) {
	t.skipped = t.state == toolPending
	t.state = toolDone
}

// loadEarlier adds the history the model no longer sees, compactions and
// branch summaries as markers.
func (m *Model) loadEarlier(earlier []runner.HistoryEntry) {
	for _, e := range earlier {
		switch e.Kind {
		case runner.HistoryContext:
			m.add(&noticeItem{text: compactedMarker})
		case runner.HistoryBranchSummary:
			m.add(&noticeItem{text: branchMarker + e.Summary})
		case runner.HistoryMessage:
			m.loadMessage(e.Message)
		}
	}
}

// compactedMarker stands where a loaded session was compacted: what is
// above it the model no longer sees.
const compactedMarker = "⟲ compacted here: the model sees a summary of what is above"

// branchMarker stands where the user came back from another branch (/tree).
const branchMarker = "⑂ back from another branch, summarised: "

// loadMessage adds a saved message to the transcript.
func (m *Model) loadMessage(msg agent.Message) {
	if m.shellBlock(msg) {
		return
	}
	switch msg.Role {
	case agent.RoleUser:
		m.add(&userItem{text: msg.Typed(), attached: msg.Attached(), label: label("", msg.QueueItemID)})
	case agent.RoleAssistant:
		a := &assistantItem{}
		a.finish(msg)
		m.add(a)
		for _, c := range msg.ToolCalls() {
			m.tool(c.ID, c.Name).args = c.Arguments
		}
	case agent.RoleToolResult:
		t := m.tool(msg.ToolCallID, msg.ToolName)
		t.finish(agent.ToolResult{Content: msg.Content, Details: msg.Details}, msg.IsError, msg.Timestamp)
		t.progress = m.t.children[t.child]
	}
}
