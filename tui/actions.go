package tui

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/msgs"
)

// quitWait bounds how long quitting waits for an aborted run to wind down
// (its tools' process groups killed, its marker saved).
const quitWait = 2 * time.Second

// quitReadyMsg says the run (if any) has stopped and the program may end.
type quitReadyMsg struct{}

// handleRunEvents forwards the bridge's envelope to the components that show
// runs, after dropping envelopes of runs older than the one on screen. The
// end of a run the user interrupted takes its steering back into the
// editor; that of a run that failed with nothing shown, its prompt
// (failedprompt.go).
func (m Model) handleRunEvents(msg msgs.RunEventMsg) (Model, tea.Cmd) {
	if msg.RunID < m.runID {
		return m, nil
	}
	m.runID = msg.RunID
	restored := false
	for _, ev := range msg.Events {
		switch e := ev.(type) {
		case agent.AgentStart:
			m.running = true
		case agent.AgentEnd:
			m.running = false
			if m.aborting {
				m.aborting = false
				m.takeBackSteering("interrupted")
				continue
			}
			m, restored = m.restoreFailedPrompt(e)
		}
	}
	m, watched := m.handleApprovalEvents(msg.Events).handlePlanEvents(msg.Events).watchEvents(msg.Events)
	var cmd tea.Cmd
	m.chat, _ = m.chat.Update(msg)
	m.queue, _ = m.queue.Update(msg)
	m.todos, _ = m.todos.Update(msg)
	m.status, cmd = m.status.Update(msg)
	cmd = tea.Batch(watched, cmd, m.notifyFor(msg.Events))
	m.input.SetRunning(m.running)
	if m.focus == focusQueue && len(m.queue.Items()) == 0 {
		m = m.setFocus(focusInput)
	}
	if !m.running { // the commands held for the run's end (held.go)
		var held tea.Cmd
		m, held = m.runHeld()
		cmd = tea.Batch(cmd, held)
	}
	if restored {
		var hint tea.Cmd
		m, hint = m.hint("the prompt is back in the editor · Enter sends it again")
		cmd = tea.Batch(cmd, hint)
	}
	return m, cmd
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
// Text the runtime refuses (too large, not saved) comes back to the editor.
func (m Model) handleSend(text string, attach []string, kind agent.QueueKind) (Model, tea.Cmd) {
	rt, mentions := m.rt, m.opts.Mentions
	m.calls.submit(call{unsent: text, run: func() tea.Msg {
		deliver := rt.Steer
		if kind == agent.QueueFollowUp {
			deliver = rt.FollowUp
		}
		images, err := readAttached(mentions, text, attach)
		if err == nil {
			_, _, err = deliver(context.Background(), text, images...)
		}
		if err != nil {
			back := agent.QueueItem{Text: text, Kind: kind, Images: attached(images, attach)}
			return msgs.ItemsTakenBackMsg{Items: []agent.QueueItem{back}, Reason: "not sent: " + err.Error(), Unsent: true}
		}
		return nil
	}})
	return m.updateChat(msgs.ScrollMsg{ToEnd: true})
}

// handleAbort interrupts the active run. Queued items survive the abort: the
// steering comes back into the editor when the run has ended, follow-ups
// stay queued (see takeBackSteering).
func (m Model) handleAbort() (Model, tea.Cmd) {
	if m.compaction != nil {
		return m.cancelCompaction()
	}
	if !m.running {
		return m, nil
	}
	m.aborting = true
	rt := m.rt
	m.calls.submit(call{run: func() tea.Msg { rt.Abort(); return nil }})
	return m, nil
}

// takeBackSteering takes the queued steering of the session on screen (never
// that of a session switched to since) back into the editor: it was meant for
// the run just interrupted. Follow-ups stay queued, keeping their kind: they
// run after the next message.
func (m Model) takeBackSteering(reason string) {
	rt, sessionID := m.rt, m.sessionID
	m.calls.submit(call{run: func() tea.Msg {
		st := rt.State()
		if st.SessionID != sessionID {
			return nil
		}
		back := msgs.ItemsTakenBackMsg{Reason: reason}
		for _, it := range st.Queue {
			if it.Kind != agent.QueueSteer {
				back.Kept++
				continue
			}
			if items, err := rt.DequeueIn(context.Background(), sessionID, it.ID); err == nil {
				back.Items = append(back.Items, items...)
			}
		}
		return back
	}})
}

// handleTakeBack takes queued item id (the newest when "") back into the
// editor, one at a time so that each keeps its kind.
func (m Model) handleTakeBack(id string) (Model, tea.Cmd) {
	if m.input.Holding() != "" {
		return m.hint("send or clear the item in the editor first: items come back one at a time")
	}
	if id == "" {
		newest, ok := m.queue.Newest()
		if !ok {
			return m, nil
		}
		id = newest.ID
	}
	if m, cmd, ok := m.takeHeld(id, false); ok {
		return m, cmd
	}
	rt := m.rt
	m.calls.submit(call{run: func() tea.Msg {
		items, err := rt.Dequeue(context.Background(), id)
		if err != nil {
			return msgs.HintMsg{Text: "that item was already sent"}
		}
		return msgs.ItemsTakenBackMsg{Items: items}
	}})
	return m, nil
}

func (m Model) handleDrop(id string) (Model, tea.Cmd) {
	if m, cmd, ok := m.takeHeld(id, true); ok {
		return m, cmd
	}
	rt := m.rt
	m.calls.submit(call{run: func() tea.Msg {
		items, err := rt.Dequeue(context.Background(), id)
		if err != nil || len(items) == 0 {
			return msgs.HintMsg{Text: "that item was already sent"}
		}
		return msgs.QueuedDroppedMsg{Item: items[0]}
	}})
	return m, nil
}

// handleTakenBack puts items into the editor, oldest first, before whatever
// is typed there. The editor re-sends them as their kind when they all
// have the same one (one item taken back with Alt+↑ always has); items of
// both kinds come back as plain text.
func (m Model) handleTakenBack(msg msgs.ItemsTakenBackMsg) (Model, tea.Cmd) {
	items := append([]agent.QueueItem(nil), msg.Items...)
	sort.SliceStable(items, func(i, j int) bool { return items[i].Created.Before(items[j].Created) })
	var texts []string
	var kind agent.QueueKind
	for i, it := range items {
		texts = append(texts, it.Text)
		if i == 0 {
			kind = it.Kind
		} else if it.Kind != kind {
			kind = ""
		}
	}
	if msg.Unsent {
		kind = ""
	}
	if len(texts) > 0 {
		m.input.TakeBack(strings.Join(texts, "\n"), kind)
		for _, it := range items {
			m.input.Reattach(it.Text, it.Images)
		}
		m = m.setFocus(focusInput)
	}
	kept := ""
	if msg.Kept > 0 { // they run after the next message
		kept = fmt.Sprintf(" · %s still queued", plural(msg.Kept, "follow-up"))
	}
	switch {
	case msg.Unsent:
		return m.hint(msg.Reason + " · the text is back in the editor")
	case msg.Reason != "" && len(items) > 0 && kept != "":
		return m.hint(fmt.Sprintf("%s · %s back in the editor%s", msg.Reason, plural(len(items), "item"), kept))
	case msg.Reason != "" && len(items) > 0:
		return m.hint(fmt.Sprintf("%s · %s moved back to the editor", msg.Reason, plural(len(items), "queued item")))
	case msg.Reason != "":
		return m.hint(msg.Reason + kept)
	}
	return m, nil
}

// quitDeadlineMsg ends the program even if the quit call never answered.
type quitDeadlineMsg struct{}

// handleQuit ends the program. Its call comes after every request made
// before it and is the owner's last: an active run is aborted with
// runner.AbortQuit and given quitWait to wind down, so that tool processes
// are killed and the transcript gets its marker. Run prints whatever input
// was left unsent. Should that call hang, the program ends anyway a little
// later.
func (m Model) handleQuit() (Model, tea.Cmd) {
	if m.quitting {
		return m, nil
	}
	m.quitting = true
	if m.compaction != nil {
		m.compaction.cancel() // it is detached: nothing else would end it
	}
	rt := m.rt
	m.calls.submit(call{last: true, run: func() tea.Msg {
		// Every run, those in the background too; idle, this only waits
		// for the last saves.
		rt.AbortWith(runner.AbortQuit)
		ctx, cancel := context.WithTimeout(context.Background(), quitWait)
		defer cancel()
		_ = rt.WaitForIdle(ctx)
		return quitReadyMsg{}
	}})
	return m, tea.Tick(quitWait+time.Second, func(time.Time) tea.Msg { return quitDeadlineMsg{} })
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
