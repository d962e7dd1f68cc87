package tui

import (
	"context"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/msgs"
)

// sessionTimeout bounds a session listing or switch.
const sessionTimeout = 10 * time.Second

// thinkingLevels is the order /thinking cycles through.
var thinkingLevels = []agent.ThinkingLevel{
	agent.ThinkingOff, agent.ThinkingMinimal, agent.ThinkingLow,
	agent.ThinkingMedium, agent.ThinkingHigh, agent.ThinkingXHigh,
}

// modelsListedMsg carries the configured models to the picker.
type modelsListedMsg struct{ models []agent.Model }

func (m Model) openDialog(d dialog.Model) Model {
	m.dialogs = append(m.dialogs, d)
	return m
}

func (m Model) closeDialog() Model {
	if n := len(m.dialogs); n > 0 {
		m.dialogs = m.dialogs[:n-1]
	}
	return m
}

func (m Model) handleOpenSessions() (Model, tea.Cmd) {
	if m.sessions == nil {
		return m.hint("saved sessions are not available")
	}
	sessions := m.sessions
	return m, m.calls.cmd(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
		defer cancel()
		list, err := sessions.ListSessions(ctx)
		if err != nil {
			return msgs.ErrorMsg{Action: "list sessions", Err: err}
		}
		return msgs.SessionsListedMsg{Sessions: list}
	})
}

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
		items[i] = dialog.Item{
			Label:  title,
			Detail: fmt.Sprintf("%s · %s", age(now.Sub(s.Updated)), plural(s.Messages, "message")),
			Msg:    msgs.ResumeSessionMsg{ID: s.ID, Title: s.Title},
		}
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
	return m, m.calls.cmd(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
		defer cancel()
		saved, _ := rt.Dequeue("")
		if err := sessions.SwitchSession(ctx, id); err != nil {
			// Nothing may run the saved items now: they go to the editor.
			return msgs.ItemsTakenBackMsg{Items: saved, Reason: "cannot resume the session: " + err.Error()}
		}
		return loadSession(rt, "", saved, note)()
	})
}

func (m Model) handleOpenModels() (Model, tea.Cmd) {
	rt := m.rt
	return m, m.calls.cmd(func() tea.Msg { return modelsListedMsg{models: rt.Models()} })
}

func (m Model) handleModelsListed(msg modelsListedMsg) (Model, tea.Cmd) {
	items := make([]dialog.Item, len(msg.models))
	selected := 0
	for i, md := range msg.models {
		detail := md.Name
		if md.ContextWindow > 0 {
			detail = fmt.Sprintf("%s · %dk context", md.Name, md.ContextWindow/1000)
		}
		if md.Ref() == m.status.Model().Ref() {
			selected = i
		}
		items[i] = dialog.Item{Label: md.Ref(), Detail: detail, Msg: msgs.SetModelMsg{Ref: md.Ref()}}
	}
	return m.openDialog(dialog.NewPicker(m.dialogDeps(), "Model", items, selected)), nil
}

func (m Model) handleSetModel(ref string) (Model, tea.Cmd) {
	rt := m.rt
	return m, m.calls.cmd(func() tea.Msg {
		model, err := rt.SetModel(ref)
		if err != nil {
			return msgs.ErrorMsg{Action: "switch the model", Err: err}
		}
		return msgs.ModelChangedMsg{Model: model}
	})
}

func (m Model) handleModelChanged(msg msgs.ModelChangedMsg) (Model, tea.Cmd) {
	m, cmd := m.updateStatus(msg)
	m, _ = m.updateChat(msgs.NoteMsg{Text: "model: " + msg.Model.Ref()})
	return m, cmd
}

func (m Model) handleOpenThinking() (Model, tea.Cmd) {
	items := make([]dialog.Item, len(thinkingLevels))
	selected := 0
	for i, l := range thinkingLevels {
		if string(l) == m.thinking {
			selected = i
		}
		items[i] = dialog.Item{Label: string(l), Msg: msgs.SetThinkingMsg{Level: l}}
	}
	return m.openDialog(dialog.NewPicker(m.dialogDeps(), "Thinking level", items, selected)), nil
}

// handleSetThinking sets a level; an empty level is the next one in order.
func (m Model) handleSetThinking(level agent.ThinkingLevel) (Model, tea.Cmd) {
	if level == "" {
		level = thinkingLevels[0]
		for i, l := range thinkingLevels {
			if string(l) == m.thinking {
				level = thinkingLevels[(i+1)%len(thinkingLevels)]
			}
		}
	}
	rt := m.rt
	return m, m.calls.cmd(func() tea.Msg {
		rt.SetThinking(level)
		return msgs.ThinkingChangedMsg{Level: level}
	})
}

func (m Model) handleThinkingChanged(msg msgs.ThinkingChangedMsg) (Model, tea.Cmd) {
	m.thinking = string(msg.Level)
	m, cmd := m.updateStatus(msg)
	m, _ = m.updateChat(msgs.NoteMsg{Text: "thinking: " + string(msg.Level)})
	return m, cmd
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
