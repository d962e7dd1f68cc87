package tui

import (
	"context"
	"fmt"
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
// SessionLoadedMsg; saved are queued items rescued from the previous
// session, note a line for the transcript.
func loadSession(rt Runtime, welcome string, saved []agent.QueueItem, note string) func() tea.Msg {
	return func() tea.Msg {
		st := rt.State()
		if note == "" && len(st.Messages) == 0 {
			note = welcome
		}
		return msgs.SessionLoadedMsg{
			SessionID: st.SessionID, Messages: st.Messages, Queue: st.Queue,
			Model: st.Model, Thinking: st.Thinking, Running: st.Running,
			PersistError: st.PersistError, Saved: saved, Note: note,
		}
	}
}

// failed marks a snapshot as the reply to a request that failed.
func failed(loaded tea.Msg, why string) tea.Msg {
	msg := loaded.(msgs.SessionLoadedMsg)
	msg.Failed = why
	return msg
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
	m.sessionID, m.thinking, m.running = msg.SessionID, string(msg.Thinking), msg.Running
	m = m.measure()
	m.chat, _ = m.chat.Update(msg)
	m.queue, _ = m.queue.Update(msg)
	var cmd tea.Cmd
	m.status, cmd = m.status.Update(msg)
	m.input.SetRunning(m.running)
	m, more := m.handleSaved(msg)
	return m, tea.Batch(cmd, more)
}

// handleSaved puts the input rescued from the previous session back into
// the editor and says why, or why the switch failed.
func (m Model) handleSaved(msg msgs.SessionLoadedMsg) (Model, tea.Cmd) {
	reason := "new session"
	if msg.Failed != "" {
		reason = msg.Failed
	}
	if len(msg.Saved) > 0 || msg.Failed != "" {
		return m.handleTakenBack(msgs.ItemsTakenBackMsg{Items: msg.Saved, Reason: reason})
	}
	return m, nil
}

// handleStaleSession handles the reply to a session request the user has
// since replaced by another: a newer snapshot is on its way, so this one is
// not shown, but the input it rescued still goes back to the editor.
func (m Model) handleStaleSession(msg tea.Msg) (Model, tea.Cmd) {
	if loaded, ok := msg.(msgs.SessionLoadedMsg); ok && len(loaded.Saved) > 0 {
		loaded.Failed = ""
		return m.handleSaved(loaded)
	}
	return m, nil
}

func (m Model) handleNewSession() (Model, tea.Cmd) {
	if m.running {
		return m.hint("a run is active: interrupt it (esc) before starting a new session")
	}
	rt := m.rt
	return m.requestSession(func() tea.Msg {
		saved, _ := rt.Dequeue("")
		if err := rt.NewSession(); err != nil {
			return failed(loadSession(rt, "", saved, "")(), "cannot start a new session: "+err.Error())
		}
		return loadSession(rt, "", saved, "new session")()
	}), nil
}

func (m Model) handleOpenSessions() (Model, tea.Cmd) {
	if m.sessions == nil {
		return m.hint("saved sessions are not available")
	}
	sessions := m.sessions
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

// handleSessionsListed opens the picker. Titles repeat (and many sessions
// have none), so every row also shows the session's id.
func (m Model) handleSessionsListed(msg msgs.SessionsListedMsg) (Model, tea.Cmd) {
	if len(msg.Sessions) == 0 {
		return m.hint("no saved sessions yet")
	}
	now := m.opts.Now()
	items := make([]dialog.Item, len(msg.Sessions))
	selected := 0
	for i, s := range msg.Sessions {
		title := s.Title
		if title == "" {
			title = "(untitled)"
		}
		if s.ID == m.sessionID {
			title, selected = "• "+title, i
		}
		detail := fmt.Sprintf("%s · %s · %s", s.ID, age(now.Sub(s.Updated)), plural(s.Messages, "message"))
		if s.OpenElsewhere != "" {
			detail += " · open in " + s.OpenElsewhere
		}
		items[i] = dialog.Item{Label: title, Detail: detail, Msg: msgs.ResumeSessionMsg{ID: s.ID, Title: s.Title}}
	}
	return m.openDialog(dialog.NewPicker(m.dialogDeps(), "Resume a session", items, selected)), nil
}

func (m Model) handleResume(msg msgs.ResumeSessionMsg) (Model, tea.Cmd) {
	id, note := msg.ID, "resumed session "+msg.ID
	if msg.Title != "" {
		note = "resumed: " + msg.Title
	}
	switch {
	case m.sessions == nil:
		return m.hint("saved sessions are not available")
	case id == m.sessionID:
		return m, nil
	case m.running:
		return m.hint("a run is active: interrupt it (esc) before switching sessions")
	}
	rt, sessions := m.rt, m.sessions
	return m.requestSession(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
		defer cancel()
		saved, _ := rt.Dequeue("")
		if err := sessions.SwitchSession(ctx, id); err != nil {
			// Nothing may run the saved items now: they go to the editor.
			return failed(loadSession(rt, "", saved, "")(), "cannot resume the session: "+err.Error())
		}
		return loadSession(rt, "", saved, note)()
	}), nil
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
