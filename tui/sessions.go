package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/inspect"
	"github.com/steer-tui/steer/tui/msgs"
)

// sessionTimeout bounds a session listing or switch.
const sessionTimeout = 10 * time.Second

// loadSession returns a call body reading the runtime's state into a
// SessionLoadedMsg, for the start: with the notice, and the welcome when
// the session is empty.
func loadSession(rt Runtime, welcome, notice string) func() tea.Msg {
	return func() tea.Msg {
		st := rt.State()
		note := notice
		if len(st.Messages) == 0 {
			note = strings.TrimSpace(notice + " " + welcome)
		}
		return msgs.SessionLoadedMsg{
			SessionID: st.SessionID, Earlier: st.Earlier, EarlierSaved: st.EarlierSaved, Messages: st.Messages, Queue: st.Queue,
			Todo: st.Todo, Approval: st.Approval, PlanFile: st.PlanFile,
			Model: st.Model, Thinking: st.Thinking, Running: st.Running,
			PersistError: st.PersistError, Note: note,
		}
	}
}

// switchedMsg is the reply to a new session or a resume. The transcript of
// the session switched to does not come with it: the runtime announces it
// among its events (runner.AnnotationSessionLoaded), so that the snapshot
// and the events after it arrive in order, also from a session that runs.
// saved are the queued items of an idle session left behind, for the
// editor; failed says why the switch did not happen.
type switchedMsg struct {
	saved  []agent.QueueItem
	failed string
}

// requestSession asks the owner for a new transcript (start, /new, a
// resume); only the latest such request's reply is shown.
func (m Model) requestSession(run func() tea.Msg) Model {
	m.latest[topicSession] = m.calls.submit(call{topic: topicSession, run: run})
	return m
}

func (m Model) handleSessionLoaded(msg msgs.SessionLoadedMsg) (Model, tea.Cmd) {
	if msg.SessionID != m.sessionID {
		m.traces = inspect.TraceLog{} // the trace is of this session's runs
	}
	if msg.Switched {
		if m.switchTo == "" || m.switchTo == msg.SessionID {
			msg.Note, m.switchNote = m.switchNote, ""
		}
		m = m.dropApprovalDialogs() // they wait in the session left behind
		for _, req := range msg.Approvals {
			if !m.hasDialog(approvalTag(req.SessionID, req.ID)) {
				m = m.openDialog(m.approvalDialog(req))
			}
		}
		m.aborting = false
	}
	m.sessionID, m.thinking, m.running = msg.SessionID, string(msg.Thinking), msg.Running
	m.subagentView = msg.Subagent
	m = m.measure()
	m.chat, _ = m.chat.Update(msg)
	m.queue, _ = m.queue.Update(msg)
	m.todos, _ = m.todos.Update(msg)
	var cmd tea.Cmd
	m.status, cmd = m.status.Update(msg)
	m.input.SetRunning(m.running)
	return m, cmd
}

// handleSwitched puts the input rescued from the session left behind back
// into the editor, or says why the switch failed.
func (m Model) handleSwitched(msg switchedMsg, stale bool) (Model, tea.Cmd) {
	reason := "new session"
	if msg.failed != "" && !stale {
		reason, m.switchNote = msg.failed, ""
	}
	if len(msg.saved) > 0 || (msg.failed != "" && !stale) {
		return m.handleTakenBack(msgs.ItemsTakenBackMsg{Items: msg.saved, Reason: reason})
	}
	return m, nil
}

// handleStaleSession handles the reply to a session request the user has
// since replaced by another: a newer snapshot is on its way, so this one is
// not shown, but the input it rescued still goes back to the editor.
func (m Model) handleStaleSession(msg tea.Msg) (Model, tea.Cmd) {
	if sw, ok := msg.(switchedMsg); ok {
		return m.handleSwitched(sw, true)
	}
	return m, nil
}

// switchSession asks the runtime to change sessions with change. The queue
// of an idle session goes back to the editor (nothing would run it); a
// running session keeps its queue, since its run goes on in the background.
// note is shown when the runtime announces the session switched to: to, or
// any session when to is "" (a new one, whose id nobody knows yet).
func (m Model) switchSession(to, note, what string, change func() error) (Model, tea.Cmd) {
	rt, left := m.rt, m.sessionID
	m.switchTo, m.switchNote = to, note
	return m.requestSession(func() tea.Msg {
		var saved []agent.QueueItem
		if st := rt.State(); st.SessionID == left && !st.Running {
			saved, _ = rt.DequeueIn(context.Background(), left, "")
		}
		if err := change(); err != nil {
			return switchedMsg{saved: saved, failed: "cannot " + what + ": " + err.Error()}
		}
		return switchedMsg{saved: saved}
	}), nil
}

func (m Model) handleNewSession() (Model, tea.Cmd) {
	rt := m.rt
	return m.switchSession("", "new session", "start a new session", func() error { return rt.NewSession(context.Background()) })
}

func (m Model) handleOpenSessions() (Model, tea.Cmd) {
	if m.sessions == nil {
		return m.hint("saved sessions are not available")
	}
	sessions := m.sessions
	m.sessionAsked = sessionAsking("", m.searchEverywhere)
	m.latest[topicPicker] = m.calls.submit(call{topic: topicPicker, run: func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
		defer cancel()
		list, err := sessions.ListSessions(ctx)
		if err != nil {
			return msgs.ErrorMsg{Action: "list sessions", Err: err}
		}
		return msgs.SessionsListedMsg{Sessions: list}
	}})
	return m, nil
}

// handleSessionsListed opens the picker, or, when it is open, shows the
// listing again (the search was cleared).
func (m Model) handleSessionsListed(msg msgs.SessionsListedMsg) (Model, tea.Cmd) {
	items, selected := m.sessionItems(msg.Sessions)
	if i := m.dialogIndex(sessionPickerTag); i >= 0 {
		m.dialogs[i].SetItems(items, "")
		return m, nil
	}
	if len(msg.Sessions) == 0 {
		return m.hint("no saved sessions yet")
	}
	d := dialog.NewSearchPicker(m.dialogDeps(), "Resume a session", items, selected, m.sessionSearch(false))
	return m.openDialog(d.WithTag(sessionPickerTag)), nil
}

// sessionItems are the picker's rows for list, and the index of the session
// on screen. Titles repeat (and many sessions have none), so every row also
// shows the session's id.
func (m Model) sessionItems(list []SessionSummary) ([]dialog.Item, int) {
	now := m.opts.Now()
	items := make([]dialog.Item, len(list))
	selected := 0
	for i, s := range list {
		title := s.Title
		if s.Name != "" {
			title = s.Name
		}
		if title == "" {
			title = "(untitled)"
		}
		if s.ID == m.sessionID {
			selected = i
		}
		detail := fmt.Sprintf("%s · %s · %s", s.ID, age(now.Sub(s.Updated)), plural(s.Messages, "message"))
		if s.ParentID != "" {
			detail += " · sub-agent of " + s.ParentID
		}
		switch {
		case s.OpenElsewhere != "":
			detail += " · open in " + s.OpenElsewhere
		case s.Running && s.ParentID != "":
			detail += " · running"
		case s.Running && s.ID != m.sessionID:
			detail += " · running in the background"
		}
		items[i] = dialog.Item{Label: title, Detail: detail, Msg: msgs.ResumeSessionMsg{ID: s.ID, Title: s.Title},
			Delete: askDeleteSessionMsg{id: s.ID, title: title, messages: s.Messages}, Current: s.ID == m.sessionID}
	}
	return items, selected
}

func (m Model) handleResume(msg msgs.ResumeSessionMsg) (Model, tea.Cmd) {
	id, note := msg.ID, "resumed session "+msg.ID
	if msg.Title != "" {
		note = "resumed: " + msg.Title
	}
	switch {
	case m.sessions == nil:
		return m.hint("saved sessions are not available")
	case id == m.sessionID && !m.subagentView:
		return m, nil
	}
	sessions := m.sessions
	return m.switchSession(id, note, "resume the session", func() error {
		ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
		defer cancel()
		return sessions.SwitchSession(ctx, id)
	})
}

// age says how long ago something happened, in the largest whole unit.
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	default:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
}
