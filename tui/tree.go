package tui

import (
	"context"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/treeview"
)

// /tree, /fork and /clone: the requests, and the runtime's answers.
type (
	openTreeMsg   struct{}
	openForkMsg   struct{}
	cloneMsg      struct{}
	treeLoadedMsg struct {
		tree runner.SessionTree
		fork bool // for /fork's picker, not /tree
	}
	navigateMsg struct {
		id        string
		summarize bool
	}
	navigatedMsg struct{ summarized bool }
	forkMsg      struct{ id string }
	forkedMsg    struct{ text string }
	clonedMsg    struct{}
	labelledMsg  struct{ label string }
)

// treeTimeout bounds a tree's read or change; a branch summary is a model
// request and has the summariser's own limit.
const treeTimeout = sessionTimeout

// loadTree reads the current session's tree for /tree or /fork.
func (m Model) loadTree(fork bool) (Model, tea.Cmd) {
	rt := m.rt
	m.latest[topicPicker] = m.calls.submit(call{topic: topicPicker, run: func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), treeTimeout)
		defer cancel()
		t, err := rt.Tree(ctx)
		if err != nil {
			return msgs.ErrorMsg{Action: "read the session's tree", Err: err}
		}
		return treeLoadedMsg{tree: t, fork: fork}
	}})
	return m, nil
}

func (m Model) handleTreeLoaded(msg treeLoadedMsg) (Model, tea.Cmd) {
	if len(msg.tree.Entries) == 0 {
		return m.hint("the session has no entries yet: send a message first")
	}
	if msg.fork {
		return m.openForkPicker(msg.tree)
	}
	m.tree = treeview.New(m.dialogDeps().Styles, m.treeKeys(), msg.tree)
	m.treeOpen = true
	return m, nil
}

// handleNavigate asks whether to summarise the branch left before moving
// the leaf; the leaf itself needs nothing.
func (m Model) handleTreeNavigate(msg treeview.NavigateMsg) (Model, tea.Cmd) {
	if msg.ID == m.tree.Leaf() {
		m.treeOpen = false
		return m.hint("the session stands there already")
	}
	if m.running {
		return m.hint("a run is active: interrupt it (Esc) or let it end, then go back in the tree")
	}
	items := []dialog.Item{
		{Label: "Go there and summarise the branch I leave", Shortcut: "s", Msg: navigateMsg{id: msg.ID, summarize: true}},
		{Label: "Go there without a summary", Shortcut: "g", Msg: navigateMsg{id: msg.ID}},
	}
	text := "The entries after it stay in the tree; your next message starts a new branch there.\nA summary (written by the model) tells it what the branch you leave tried."
	return m.openDialog(dialog.NewQuestion(m.dialogDeps(), "Go back to this entry?", text, items, nil)), nil
}

func (m Model) handleNavigate(msg navigateMsg) (Model, tea.Cmd) {
	rt := m.rt
	m.calls.submit(call{run: func() tea.Msg {
		if err := rt.NavigateTree(context.Background(), msg.id, msg.summarize); err != nil {
			return msgs.ErrorMsg{Action: "go to that entry", Err: err}
		}
		return navigatedMsg{summarized: msg.summarize}
	}})
	m.treeOpen = false
	if msg.summarize {
		return m.hint("summarising the branch you leave…")
	}
	return m, nil
}

func (n navigatedMsg) note() string {
	if n.summarized {
		return "moved back in the tree; the branch left is summarised for the model: your next message starts a new branch"
	}
	return "moved back in the tree: your next message starts a new branch"
}

func (m Model) handleTreeLabel(msg treeview.LabelMsg) (Model, tea.Cmd) {
	rt := m.rt
	m.calls.submit(call{run: func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), treeTimeout)
		defer cancel()
		if err := rt.LabelEntry(ctx, msg.ID, msg.Label); err != nil {
			return msgs.ErrorMsg{Action: "label the entry", Err: err}
		}
		return labelledMsg{label: msg.Label}
	}})
	return m, nil
}

func (l labelledMsg) note() string {
	if l.label == "" {
		return "label removed"
	}
	return "labelled: " + l.label
}

// openForkPicker lists the user messages of the current path, newest first:
// the fork holds what came before the one chosen.
func (m Model) openForkPicker(t runner.SessionTree) (Model, tea.Cmd) {
	byID := make(map[string]runner.HistoryEntry, len(t.Entries))
	for _, e := range t.Entries {
		byID[e.ID] = e
	}
	var items []dialog.Item
	for id := t.Leaf; id != ""; id = byID[id].ParentID {
		e := byID[id]
		if e.Kind == runner.HistoryMessage && e.Message.Role == agent.RoleUser {
			text := strings.Join(strings.Fields(e.Message.Typed()), " ")
			items = append(items, dialog.Item{Label: text, Detail: "entry " + e.ID, Msg: forkMsg{id: e.ID}})
		}
	}
	if len(items) == 0 {
		return m.hint("nothing to fork from: the session has no message of yours")
	}
	return m.openDialog(dialog.NewPicker(m.dialogDeps(), "Fork: a new session from before which message?", items, 0)), nil
}

func (m Model) handleFork(msg forkMsg) (Model, tea.Cmd) {
	if m.running {
		return m.hint("a run is active: interrupt it (Esc) or let it end, then fork")
	}
	rt := m.rt
	m = m.requestSession(func() tea.Msg {
		text, err := rt.Fork(context.Background(), msg.id)
		if err != nil {
			return msgs.ErrorMsg{Action: "fork the session", Err: err}
		}
		return forkedMsg{text: text}
	})
	return m, nil
}

// handleForked puts the message the fork was cut before into the editor.
func (m Model) handleForked(msg forkedMsg) (Model, tea.Cmd) {
	if m.input.Value() == "" {
		m.input.SetValue(msg.text)
	}
	return m.updateChat(msgs.NoteMsg{Text: "forked into a new session: your message is back in the editor"})
}

func (m Model) handleClone() (Model, tea.Cmd) {
	if m.running {
		return m.hint("a run is active: interrupt it (Esc) or let it end, then clone")
	}
	rt := m.rt
	m = m.requestSession(func() tea.Msg {
		if err := rt.Clone(context.Background()); err != nil {
			return msgs.ErrorMsg{Action: "clone the session", Err: err}
		}
		return clonedMsg{}
	})
	return m, nil
}
