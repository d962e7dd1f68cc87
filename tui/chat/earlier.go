package chat

import "github.com/steer-tui/steer/agent/runner"

// prepend puts saved history above the transcript: the part of a long
// session it was loaded without (msgs.EarlierLoadedMsg). Its items are
// built as load builds them; the items below keep their place on screen,
// which only the indexes of the view's anchor and selection follow.
func (m *Model) prepend(earlier []runner.HistoryEntry) {
	below, active, unseen := m.t.entries, m.t.active, m.unseen
	m.t.entries, m.t.active = nil, map[*toolItem]bool{}
	m.loadEarlier(earlier)
	for t := range m.t.active {
		settleLoaded(t) // saved history has run to its end
	}
	n := len(m.t.entries)
	for _, e := range below {
		e.index += n
	}
	m.t.entries, m.t.active, m.unseen = append(m.t.entries, below...), active, unseen
	if below = nil; n == 0 {
		return
	}
	m.top.item += n
	if m.selected >= 0 {
		m.selected += n
	}
}
