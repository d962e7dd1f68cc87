package tui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/input"
)

// Prompts is the prompt history of the current session's workspace, which
// the editor walks with ↑ and searches with Ctrl+R (see input/history.go).
// The methods do IO: they are called from the calls' lanes.
type Prompts interface {
	PromptHistory(ctx context.Context) (runner.PromptHistory, error)
	AddPrompt(ctx context.Context, p runner.Prompt) (runner.Prompt, error)
	SearchPrompts(ctx context.Context, query string, before int64, limit int) ([]runner.Prompt, error)
}

// olderMatches is how many older matches one SearchHistoryMsg reads.
const olderMatches = 100

// loadHistory reads the workspace's prompt history for the editor, at start
// and when a walk or a search starts (input.LoadHistoryMsg).
func (m Model) loadHistory() Model {
	rt := m.rt
	m.latest[topicHistory] = m.calls.submit(call{topic: topicHistory, run: func() tea.Msg {
		h, err := rt.PromptHistory(context.Background())
		return input.HistoryLoadedMsg{History: h, Err: err}
	}})
	return m
}

// searchHistory searches the prompt history older than the editor holds
// (input.SearchHistoryMsg).
func (m Model) searchHistory(req input.SearchHistoryMsg) Model {
	rt := m.rt
	m.latest[topicFound] = m.calls.submit(call{topic: topicFound, run: func() tea.Msg {
		found, err := rt.SearchPrompts(context.Background(), req.Query, req.Before, olderMatches)
		return input.HistoryFoundMsg{Query: req.Query, Prompts: found, Err: err}
	}})
	return m
}

// savePrompt saves what the editor just sent to the history. It travels on
// the ordered lane, behind the input it records: the history keeps the
// order things were sent in, and quitting waits for it.
func (m Model) savePrompt() Model {
	sent, ok := m.input.Sent()
	if !ok {
		return m
	}
	rt := m.rt
	m.calls.submit(call{run: func() tea.Msg {
		saved, err := rt.AddPrompt(context.Background(), sent.Prompt)
		return input.HistorySavedMsg{Seq: sent.Seq, Prompt: saved, Err: err}
	}})
	return m
}

// updateInput hands the editor a reply it owns, whatever has the focus.
func (m Model) updateInput(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd
}
