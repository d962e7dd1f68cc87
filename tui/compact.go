package tui

import (
	"context"
	"errors"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
)

// compactMsg asks to compact the session (/compact [instructions]).
type compactMsg struct{ instructions string }

// compactDoneMsg says the compaction ended; its notice comes with the
// runtime's compaction_end event.
type compactDoneMsg struct{ err error }

// compaction is the compaction under way; copies of the model share it.
type compaction struct{ cancel context.CancelFunc }

// handleCompact starts a compaction unless a run is active; the status line
// says it is under way, and Esc cancels it. The compaction waits for a lane
// and a model call, so it is detached from the ordered lane (calls.go):
// typing, dialogs and the inspectors go on meanwhile.
func (m Model) handleCompact(msg compactMsg) (Model, tea.Cmd) {
	switch {
	case m.running:
		return m.hint("a run is active: wait for it to end (or Esc) before /compact")
	case m.compaction != nil:
		return m.hint("already compacting · Esc cancels")
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.compaction = &compaction{cancel: cancel}
	rt := m.rt
	m.calls.submit(call{detached: true, run: func() tea.Msg {
		defer cancel()
		_, err := rt.Compact(ctx, msg.instructions)
		return compactDoneMsg{err: err}
	}})
	m.status.SetCompacting(true)
	return m, nil
}

// handleCompactDone ends the compaction; a failure the runtime could not
// put in the transcript (a run had started) is shown in the status line.
func (m Model) handleCompactDone(msg compactDoneMsg) (Model, tea.Cmd) {
	m.compaction = nil
	m.status.SetCompacting(false)
	if errors.Is(msg.err, agent.ErrBusy) {
		return m.hint("not compacted: a run started first")
	}
	return m, nil
}

// cancelCompaction is Esc while compacting.
func (m Model) cancelCompaction() (Model, tea.Cmd) {
	m.compaction.cancel()
	return m.hint("cancelling the compaction…")
}
