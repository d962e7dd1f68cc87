package tui

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/tui/msgs"
)

// quitWait bounds how long quitting waits for an aborted run to wind down.
const quitWait = 2 * time.Second

// quitReadyMsg says the run (if any) has stopped and the program may end.
type quitReadyMsg struct{}

// handleRunEvents forwards the bridge's envelope to the components that show
// runs, after dropping envelopes of runs older than the one on screen. The
// end of a run the user interrupted takes the queue back into the editor.
func (m Model) handleRunEvents(msg msgs.RunEventMsg) (Model, tea.Cmd) {
	if msg.RunID < m.runID {
		return m, nil
	}
	m.runID = msg.RunID
	var cmds []tea.Cmd
	for _, ev := range msg.Events {
		switch ev.(type) {
		case agent.AgentStart:
			m.running = true
		case agent.AgentEnd:
			m.running = false
			if m.aborting {
				m.aborting = false
				cmds = append(cmds, m.takeBackAll("interrupted"))
			}
		}
	}
	var cmd tea.Cmd
	m.chat, _ = m.chat.Update(msg)
	m.queue, _ = m.queue.Update(msg)
	m.status, cmd = m.status.Update(msg)
	m.input.SetRunning(m.running)
	if m.focus == focusQueue && len(m.queue.Items()) == 0 {
		m = m.setFocus(focusInput)
	}
	return m, tea.Batch(append(cmds, cmd)...)
}

// handleTick advances the spinner; running tool blocks show the same frame.
func (m Model) handleTick(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	m.status, cmd = m.status.Update(msg)
	if m.status.Running() {
		m.chat.SetSpinner(m.status.Spinner(), m.opts.Now())
	}
	return m, cmd
}

// handleSend delivers text: steering (or a follow-up) while a run is
// active, a new prompt otherwise. The runtime decides atomically, so text
// typed as a run ends is never queued behind a run that stopped listening.
func (m Model) handleSend(text string, followUp bool) (Model, tea.Cmd) {
	rt := m.rt
	send := m.calls.cmd(func() tea.Msg {
		deliver := rt.Steer
		if followUp {
			deliver = rt.FollowUp
		}
		if _, _, err := deliver(text); err != nil {
			back := agent.QueueItem{Text: text}
			return msgs.ItemsTakenBackMsg{Items: []agent.QueueItem{back}, Reason: "not sent: " + err.Error()}
		}
		return nil
	})
	m, _ = m.updateChat(msgs.ScrollMsg{ToEnd: true})
	return m, send
}

// handleAbort interrupts the active run. Queued items survive the abort and
// come back into the editor when the run has ended.
func (m Model) handleAbort() (Model, tea.Cmd) {
	if !m.running {
		return m, nil
	}
	m.aborting = true
	rt := m.rt
	return m, m.calls.cmd(func() tea.Msg { rt.Abort(); return nil })
}

// takeBackAll empties the queue into the editor.
func (m Model) takeBackAll(reason string) tea.Cmd {
	rt := m.rt
	return m.calls.cmd(func() tea.Msg {
		items, _ := rt.Dequeue("")
		return msgs.ItemsTakenBackMsg{Items: items, Reason: reason}
	})
}

// handleTakeBack takes queued item id (the newest when "") back.
func (m Model) handleTakeBack(id string) (Model, tea.Cmd) {
	if id == "" {
		newest, ok := m.queue.Newest()
		if !ok {
			return m, nil
		}
		id = newest.ID
	}
	rt := m.rt
	return m, m.calls.cmd(func() tea.Msg {
		items, err := rt.Dequeue(id)
		if err != nil {
			return msgs.HintMsg{Text: "that item was already sent"}
		}
		return msgs.ItemsTakenBackMsg{Items: items}
	})
}

func (m Model) handleDrop(id string) (Model, tea.Cmd) {
	rt := m.rt
	return m, m.calls.cmd(func() tea.Msg {
		items, err := rt.Dequeue(id)
		if err != nil || len(items) == 0 {
			return msgs.HintMsg{Text: "that item was already sent"}
		}
		return msgs.QueuedDroppedMsg{Item: items[0]}
	})
}

// handleTakenBack puts items into the editor, oldest first, before whatever
// is typed there.
func (m Model) handleTakenBack(msg msgs.ItemsTakenBackMsg) (Model, tea.Cmd) {
	items := append([]agent.QueueItem(nil), msg.Items...)
	sort.SliceStable(items, func(i, j int) bool { return items[i].Created.Before(items[j].Created) })
	var texts []string
	for _, it := range items {
		texts = append(texts, it.Text)
	}
	if len(texts) > 0 {
		m.input.Prepend(strings.Join(texts, "\n"))
		m = m.setFocus(focusInput)
	}
	switch {
	case msg.Reason != "" && len(items) > 0:
		return m.hint(fmt.Sprintf("%s · %s moved back to the editor", msg.Reason, plural(len(items), "queued item")))
	case msg.Reason != "":
		return m.hint(msg.Reason)
	}
	return m, nil
}

// handleQuit ends the program; an active run is aborted first and given
// quitWait to wind down, so tool processes are killed and the transcript
// gets its marker. Run prints whatever input was left unsent.
func (m Model) handleQuit() (Model, tea.Cmd) {
	if m.quitting {
		return m, nil
	}
	m.quitting = true
	if !m.running {
		return m, tea.Quit
	}
	rt := m.rt
	return m, m.calls.cmd(func() tea.Msg {
		rt.Abort()
		ctx, cancel := context.WithTimeout(context.Background(), quitWait)
		defer cancel()
		_ = rt.WaitForIdle(ctx)
		return quitReadyMsg{}
	})
}

// loadSession returns a Cmd body reading the runtime's state into a
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
			Saved: saved, Note: note,
		}
	}
}

func (m Model) handleSessionLoaded(msg msgs.SessionLoadedMsg) (Model, tea.Cmd) {
	m.sessionID, m.thinking, m.running = msg.SessionID, string(msg.Thinking), msg.Running
	m.chat, _ = m.chat.Update(msg)
	m.queue, _ = m.queue.Update(msg)
	var cmd tea.Cmd
	m.status, cmd = m.status.Update(msg)
	m.input.SetRunning(m.running)
	if len(msg.Saved) > 0 {
		var more tea.Cmd
		m, more = m.handleTakenBack(msgs.ItemsTakenBackMsg{Items: msg.Saved, Reason: "new session"})
		cmd = tea.Batch(cmd, more)
	}
	return m, cmd
}

func (m Model) handleNewSession() (Model, tea.Cmd) {
	if m.running {
		return m.hint("a run is active: interrupt it (esc) before starting a new session")
	}
	rt := m.rt
	return m, m.calls.cmd(func() tea.Msg {
		saved, _ := rt.Dequeue("")
		if err := rt.NewSession(); err != nil {
			return msgs.ErrorMsg{Action: "start a new session", Err: err}
		}
		return loadSession(rt, "", saved, "new session")()
	})
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// oneLine folds s onto one line of at most n runes, for hints.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
