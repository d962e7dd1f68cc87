package input

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent/runner"
)

// Ctrl+R searches the prompt history as readline does: what is typed
// filters it (runner.PromptMatches, newest first), Ctrl+R again goes on to
// the next older match (with nothing typed yet, it searches for the last
// query again), Enter takes the match into the editor as ↑ would have
// brought it (↓ walks on from it to the draft), Esc leaves the editor as it
// was. A line above the rule shows the query and the match:
//
//	(reverse-i-search)`sec': second prompt
//
// The search runs over the history the editor holds, at once on every key.
// When that holds the whole window (runner.PromptHistoryLimit) and finds
// nothing more, the owner is asked to search the older history
// (SearchHistoryMsg); the matches found join the end of the history.

// SearchHistoryMsg asks the editor's owner to search the workspace's prompt
// history older than prompt Before for Query (runner.Host.SearchPrompts) and
// answer with a HistoryFoundMsg.
type SearchHistoryMsg struct {
	Query  string
	Before int64
}

// HistoryFoundMsg is the answer to a SearchHistoryMsg: the older prompts
// matching Query, newest first, or why the search failed.
type HistoryFoundMsg struct {
	Query   string
	Prompts []runner.Prompt
	Err     error
}

// search is a reverse incremental search under way.
type search struct {
	active bool
	query  string
	at     int  // the match shown, an index into the history; -1 for none
	failed bool // the last key found no (further) match
	// dismissed is the completion list's state before the search, which
	// closes it.
	dismissed bool
	// asked is the query the owner was last asked about, for the history
	// older than askedBefore: each page is asked for once.
	asked       string
	askedBefore int64
}

// Searching reports whether a history search is open: it takes the keys
// the root would otherwise take (Esc, Enter).
func (m Model) Searching() bool { return m.hist.search.active }

// startSearch opens a search and reads the history again, for what other
// steer processes sent.
func (m *Model) startSearch() tea.Cmd {
	m.hist.search = search{active: true, at: -1, dismissed: m.dismissed}
	m.dismissed = true
	return loadHistory
}

// endSearch closes the search, leaving the editor as it is.
func (m *Model) endSearch() {
	m.dismissed = m.hist.search.dismissed
	m.hist.search = search{}
}

// searchKey handles a key while searching. Keys of no use to the search are
// dropped rather than edit a text the user does not see change.
func (m *Model) searchKey(k tea.KeyMsg) tea.Cmd {
	hk, s := m.keys.History, &m.hist.search
	switch {
	case key.Matches(k, hk.Take):
		m.takeMatch()
	case key.Matches(k, hk.Cancel):
		m.endSearch()
	case key.Matches(k, hk.Older):
		if s.query == "" {
			s.query = m.hist.last
			return m.find(0)
		}
		return m.find(s.at + 1)
	case key.Matches(k, m.editKeys.Backspace):
		if r := []rune(s.query); len(r) > 0 {
			s.query = string(r[:len(r)-1])
			return m.find(0)
		}
	case k.Type == tea.KeySpace:
		s.query += " "
		return m.find(max(s.at, 0))
	case k.Type == tea.KeyRunes && !k.Alt:
		s.query += strings.ReplaceAll(normalizeNewlines(string(k.Runes)), "\n", " ") // a query is one line
		return m.find(max(s.at, 0))
	}
	return nil
}

// find shows the first match of the query at or after item from; with
// none, the search has failed and keeps the match it showed, and the older
// history is searched when the editor may not hold all of it.
func (m *Model) find(from int) tea.Cmd {
	h, s := &m.hist, &m.hist.search
	if s.query == "" {
		s.at, s.failed = -1, false
		return nil
	}
	h.last = s.query
	for i := from; i < len(h.items); i++ {
		if runner.PromptMatches(h.items[i].Text, s.query) {
			s.at, s.failed = i, false
			return nil
		}
	}
	s.failed = true
	return m.askOlder()
}

// askOlder asks for the matches older than the history the editor holds,
// once per query and page, when it holds a full window.
func (m *Model) askOlder() tea.Cmd {
	h, s := &m.hist, &m.hist.search
	if len(h.items) < runner.PromptHistoryLimit {
		return nil
	}
	before := h.items[len(h.items)-1].ID
	if before == 0 || (s.asked == s.query && s.askedBefore == before) {
		return nil
	}
	s.asked, s.askedBefore = s.query, before
	req := SearchHistoryMsg{Query: s.query, Before: before}
	return func() tea.Msg { return req }
}

// found adds the older matches of the query still searched for to the end
// of the history and searches on.
func (m *Model) found(msg HistoryFoundMsg) tea.Cmd {
	h, s := &m.hist, &m.hist.search
	if !s.active || msg.Query != s.query {
		return nil
	}
	if msg.Err != nil {
		return hint("the older prompt history could not be searched: " + msg.Err.Error())
	}
	items := slices.Clone(h.items)
	for _, p := range msg.Prompts {
		if !slices.ContainsFunc(items, func(e entry) bool { return e.ID == p.ID }) {
			items = append(items, entry{Prompt: p})
		}
	}
	h.items = items
	if s.failed {
		return m.find(max(s.at, 0))
	}
	return nil
}

// takeMatch ends the search with its match in the editor, as a walk
// through the history would show it.
func (m *Model) takeMatch() {
	at := m.hist.search.at
	m.endSearch()
	if at < 0 {
		return
	}
	h := &m.hist
	if !h.walking {
		h.draft = m.capture()
		h.walking = true
	}
	m.show(at, false)
}

// moved keeps the match on the same item when the history is read again.
func (s *search) moved(old, items []entry) {
	if s.active && s.at >= 0 {
		s.at = slices.IndexFunc(items, old[s.at].same)
	}
}

// renderSearch is the search's line: its query and match, the match folded
// onto one line.
func (m *Model) renderSearch() []string {
	s := m.hist.search
	if !s.active {
		return nil
	}
	st := m.d.Styles
	label := "(reverse-i-search)"
	if s.failed {
		label = "(failed reverse-i-search)"
	}
	var match string
	if s.at >= 0 {
		match = strings.Join(strings.Fields(m.hist.items[s.at].Text), " ")
	}
	line := st.Search.Render(label) + st.SearchQuery.Render("`"+s.query+"'") + st.Search.Render(": ") + st.SearchMatch.Render(match)
	return []string{ansi.Truncate(line, m.width, "…")}
}
