package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/msgs"
)

// sessionPickerTag names the session picker among the dialogs, for the
// search's answers to find it.
const sessionPickerTag = "sessions"

// Scopes of the picker's search, as its query line words them.
const (
	scopeWorkspace = "this workspace"
	scopeAll       = "all workspaces"
)

// sessionQueryMsg is the picker's query changed; sessionScopeMsg is Tab.
// The dialog sends the first from a Cmd per key, and Cmds arrive in no
// particular order, so it carries no query: the dialog's is the one.
type (
	sessionQueryMsg struct{}
	sessionScopeMsg struct{}
)

// sessionsFoundMsg answers a search: the hits of query in its scope.
type sessionsFoundMsg struct {
	query      string
	everywhere bool
	hits       []SessionHit
}

// sessionSearch is the picker's search, in this workspace or everywhere.
func (m Model) sessionSearch(everywhere bool) dialog.Search {
	scope := scopeWorkspace
	if everywhere {
		scope = scopeAll
	}
	return dialog.Search{Scope: scope, OnTab: sessionScopeMsg{},
		OnQuery: func(string) tea.Msg { return sessionQueryMsg{} }}
}

// handleSessionQuery searches for the picker's query; an empty one lists
// the workspace's sessions again. Only the latest answer is shown.
func (m Model) handleSessionQuery(query string) (Model, tea.Cmd) {
	if m.sessions == nil {
		return m, nil
	}
	sessions, everywhere := m.sessions, m.searchEverywhere
	m.sessionAsked = sessionAsking(query, everywhere)
	m.latest[topicPicker] = m.calls.submit(call{topic: topicPicker, run: func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
		defer cancel()
		if query == "" {
			list, err := sessions.ListSessions(ctx)
			if err != nil {
				return msgs.ErrorMsg{Action: "list sessions", Err: err}
			}
			return msgs.SessionsListedMsg{Sessions: list}
		}
		hits, err := sessions.SearchSessions(ctx, query, everywhere)
		if err != nil {
			return msgs.ErrorMsg{Action: "search sessions", Err: err}
		}
		return sessionsFoundMsg{query: query, everywhere: everywhere, hits: hits}
	}})
	return m, nil
}

// handleSessionQueryChanged searches for the picker's query as it stands,
// unless that is the search last asked for.
func (m Model) handleSessionQueryChanged() (Model, tea.Cmd) {
	i := m.dialogIndex(sessionPickerTag)
	if i < 0 || sessionAsking(m.dialogs[i].Query(), m.searchEverywhere) == m.sessionAsked {
		return m, nil
	}
	return m.handleSessionQuery(m.dialogs[i].Query())
}

// sessionAsking names a search of the picker: its query in its scope.
func sessionAsking(query string, everywhere bool) string {
	return fmt.Sprintf("%t %s", everywhere, query)
}

// handleSessionScope switches the search between this workspace and all.
func (m Model) handleSessionScope() (Model, tea.Cmd) {
	i := m.dialogIndex(sessionPickerTag)
	if i < 0 {
		return m, nil
	}
	m.searchEverywhere = !m.searchEverywhere
	scope := m.sessionSearch(m.searchEverywhere).Scope
	m.dialogs[i].SetItems(nil, scope)
	return m.handleSessionQuery(m.dialogs[i].Query())
}

// handleSessionsFound shows a search's hits in the picker, each with the
// line that matched (and its workspace when searching everywhere).
func (m Model) handleSessionsFound(msg sessionsFoundMsg) (Model, tea.Cmd) {
	i := m.dialogIndex(sessionPickerTag)
	if i < 0 || m.dialogs[i].Query() != msg.query {
		return m, nil
	}
	now := m.opts.Now()
	items := make([]dialog.Item, len(msg.hits))
	for k, h := range msg.hits {
		title := h.Title
		if title == "" {
			title = "(untitled)"
		}
		detail := fmt.Sprintf("%s · %s", h.ID, age(now.Sub(h.Updated)))
		if msg.everywhere {
			detail += " · " + h.Workspace
		}
		items[k] = dialog.Item{Label: title + " — " + h.Match, Detail: detail, Msg: msgs.ResumeSessionMsg{ID: h.ID, Title: h.Title},
			Delete: askDeleteSessionMsg{id: h.ID, title: title}, Current: h.ID == m.sessionID}
	}
	m.dialogs[i].SetItems(items, "")
	return m, nil
}

// dialogIndex is the index of the open dialog tagged tag, or -1.
func (m Model) dialogIndex(tag string) int {
	for i, d := range m.dialogs {
		if d.Tag() == tag {
			return i
		}
	}
	return -1
}
