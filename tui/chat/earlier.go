package chat

import "github.com/steer-tui/steer/agent/runner"

// readingEarlier stands at the top of a transcript loaded without its
// saved history above, until that history comes (prepend).
const readingEarlier = "⋯ reading the history above…"

// awaitEarlier notes that saved history above compaction before is to come
// (msgs.EarlierLoadedMsg), and says so at the top; "" is none.
func (m *Model) awaitEarlier(before string) {
	m.t.earlierSaved = before
	if before == "" {
		return
	}
	below := m.t.entries
	m.t.entries = nil
	m.add(&noticeItem{text: readingEarlier})
	m.t.entries = append(m.t.entries, below...)
	for i, e := range m.t.entries {
		e.index = i
	}
}

// prepend puts saved history above the transcript in place of the line
// awaitEarlier put there: the part of a long session it was loaded without,
// or why it could not be read. Its items are built as load builds them. A
// view at the top stays at the top, now the session's first entry; one
// further down keeps its place, which only the indexes of its anchor and
// selection follow.
func (m *Model) prepend(earlier []runner.HistoryEntry, err error) {
	if len(m.t.entries) == 0 {
		return
	}
	below, active, unseen := m.t.entries[1:], m.t.active, m.unseen // [0] is readingEarlier
	m.t.entries, m.t.active = nil, map[*toolItem]bool{}
	if err != nil {
		m.add(&noticeItem{text: "✗ the history above could not be read: " + err.Error(), kind: noticeError})
	}
	m.loadEarlier(earlier)
	for t := range m.t.active {
		settleLoaded(t) // saved history has run to its end
	}
	shift := len(m.t.entries) - 1
	for _, e := range below {
		e.index += shift
	}
	m.t.entries, m.t.active, m.unseen = append(m.t.entries, below...), active, unseen
	if m.top.item > 0 {
		m.top.item += shift
	} else {
		m.top = anchor{}
	}
	if m.selected > 0 {
		m.selected += shift
	} else if m.selected == 0 {
		m.selected = -1
	}
}
