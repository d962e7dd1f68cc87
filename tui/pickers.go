package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/msgs"
)

// thinkingLevels is the order /thinking cycles through.
var thinkingLevels = []agent.ThinkingLevel{
	agent.ThinkingOff, agent.ThinkingMinimal, agent.ThinkingLow,
	agent.ThinkingMedium, agent.ThinkingHigh, agent.ThinkingXHigh,
}

// modelsListedMsg carries the models to the picker, why any of them cannot
// be used (by index; "" when it can) and which only their server lists.
type modelsListedMsg struct {
	models     []agent.Model
	problems   []string
	discovered []bool
}

func (m Model) openDialog(d dialog.Model) Model {
	if n := len(m.dialogs); n > 0 {
		m.dialogs[n-1].SetShown(time.Time{}) // covered: shown anew when it comes back
	}
	m.dialogs = append(m.dialogs, d)
	return m
}

func (m Model) closeDialog() Model {
	if n := len(m.dialogs); n > 0 {
		m.dialogs = m.dialogs[:n-1]
	}
	return m
}

// refreshModels has the servers of discovering providers list their models
// once the TUI listens to the runtime's notices, so that an outage is told
// and the session's model gets its window early. It is detached: a server
// that does not answer holds up no lane.
func (m Model) refreshModels() Model {
	rt := m.rt
	m.latest[topicModels] = m.calls.submit(call{topic: topicModels, detached: true, run: func() tea.Msg {
		rt.RefreshModels(context.Background())
		return nil
	}})
	return m
}

// handleOpenModels lists the models for the picker, the servers asked
// again first; detached, since a server may take its time to answer.
func (m Model) handleOpenModels() (Model, tea.Cmd) {
	rt := m.rt
	m.latest[topicPicker] = m.calls.submit(call{topic: topicPicker, detached: true, run: func() tea.Msg {
		rt.RefreshModels(context.Background())
		models := rt.Models()
		msg := modelsListedMsg{models: models, problems: make([]string, len(models)), discovered: make([]bool, len(models))}
		for i, md := range models {
			msg.problems[i], msg.discovered[i] = rt.ModelProblem(md), rt.ModelDiscovered(md)
		}
		return msg
	}})
	return m, nil
}

// modelDetail is what the picker says of a model beside its reference: its
// name, whether only its server lists it, its context window; or why it
// cannot be used.
func modelDetail(md agent.Model, problem string, discovered bool) string {
	if problem != "" {
		return "unusable: " + problem
	}
	var parts []string
	if md.Name != "" {
		parts = append(parts, md.Name)
	}
	if discovered {
		parts = append(parts, "discovered")
	}
	if md.ContextWindow > 0 {
		parts = append(parts, fmt.Sprintf("%dk context", md.ContextWindow/1000))
	}
	return strings.Join(parts, " · ")
}

func (m Model) handleModelsListed(msg modelsListedMsg) (Model, tea.Cmd) {
	items := make([]dialog.Item, len(msg.models))
	selected := 0
	for i, md := range msg.models {
		detail := modelDetail(md, msg.problems[i], msg.discovered[i])
		current := md.Ref() == m.status.Model().Ref()
		if current {
			selected = i
		}
		items[i] = dialog.Item{Label: md.Ref(), Detail: detail, Msg: msgs.SetModelMsg{Ref: md.Ref()}, Current: current}
	}
	return m.openDialog(dialog.NewPicker(m.dialogDeps(), "Model", items, selected)), nil
}

func (m Model) handleSetModel(ref string) (Model, tea.Cmd) {
	rt := m.rt
	m.calls.submit(call{run: func() tea.Msg {
		model, err := rt.SetModel(context.Background(), ref)
		if err != nil {
			return msgs.ErrorMsg{Action: "switch the model", Err: err}
		}
		return msgs.ModelChangedMsg{Model: model}
	}})
	return m, nil
}

func (m Model) handleModelChanged(msg msgs.ModelChangedMsg) (Model, tea.Cmd) {
	m, cmd := m.measure().updateStatus(msg)
	m, _ = m.updateChat(msgs.NoteMsg{Text: "model: " + msg.Model.Ref()})
	return m, cmd
}

func (m Model) handleOpenThinking() (Model, tea.Cmd) {
	items := make([]dialog.Item, len(thinkingLevels))
	selected, level := 0, m.thinking
	if level == "" { // no level set is off, as the status line says
		level = string(agent.ThinkingOff)
	}
	for i, l := range thinkingLevels {
		current := string(l) == level
		if current {
			selected = i
		}
		items[i] = dialog.Item{Label: string(l), Msg: msgs.SetThinkingMsg{Level: l}, Current: current}
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
	m.calls.submit(call{run: func() tea.Msg {
		rt.SetThinking(level)
		return msgs.ThinkingChangedMsg{Level: level}
	}})
	return m, nil
}

func (m Model) handleThinkingChanged(msg msgs.ThinkingChangedMsg) (Model, tea.Cmd) {
	m.thinking = string(msg.Level)
	m, cmd := m.updateStatus(msg)
	m, _ = m.updateChat(msgs.NoteMsg{Text: "thinking: " + string(msg.Level)})
	return m, cmd
}
