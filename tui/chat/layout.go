package chat

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// gutter is the width of the selection column left of every item.
const gutter = 2

// compose renders what is visible and joins it into the frame View returns.
// Only items on screen are rendered (each once per width, then cached), so
// the cost does not depend on the length of the transcript.
func (m *Model) compose() {
	if m.height <= 0 || m.width <= 0 {
		m.frame = ""
		return
	}
	rc := m.renderCtx()
	var lines []string
	if m.follow {
		lines = m.bottomLines(rc)
	} else {
		lines = m.linesFrom(rc, m.top)
		if len(lines) < m.height {
			m.follow, m.unseen = true, false // scrolled back to the end
			lines = m.bottomLines(rc)
		}
	}
	if len(lines) > m.height {
		lines = lines[:m.height]
	}
	if m.unseen && !m.follow && len(lines) > 0 {
		hint := m.d.Styles.NewOutput.Render("↓ new output")
		pad := max((m.width-ansi.StringWidth(hint))/2, 0)
		lines[len(lines)-1] = strings.Repeat(" ", pad) + hint
	}
	for len(lines) < m.height {
		lines = append(lines, "")
	}
	m.frame = strings.Join(lines, "\n")
}

// display returns item i's lines as shown: a blank separator above all but
// the first item, and the gutter, which marks the selected item. An item
// with nothing to show (an assistant message that only called tools) takes
// no room at all.
func (m *Model) display(rc *renderCtx, i int) []string {
	body := m.t.entries[i].ensure(rc)
	if len(body) == 0 {
		return nil
	}
	out := make([]string, 0, len(body)+1)
	if i > 0 {
		out = append(out, "")
	}
	selected := m.focused && i == m.selected
	mark := "  "
	if selected {
		mark = m.d.Styles.Selected.Render("▌") + " "
	}
	for _, l := range body {
		if l == "" && !selected {
			out = append(out, "")
			continue
		}
		out = append(out, mark+l)
	}
	return out
}

func (m *Model) rows(rc *renderCtx, i int) int {
	n := len(m.t.entries[i].ensure(rc))
	if n > 0 && i > 0 {
		n++
	}
	return n
}

// bottomLines returns the last m.height lines and records where they start.
func (m *Model) bottomLines(rc *renderCtx) []string {
	var chunks [][]string
	total := 0
	i := len(m.t.entries) - 1
	for ; i >= 0 && total < m.height; i-- {
		d := m.display(rc, i)
		chunks = append(chunks, d)
		total += len(d)
	}
	lines := make([]string, 0, total)
	for j := len(chunks) - 1; j >= 0; j-- {
		lines = append(lines, chunks[j]...)
	}
	m.top = anchor{item: i + 1}
	if extra := total - m.height; extra > 0 {
		lines = lines[extra:]
		m.top.line = extra
	}
	return lines
}

// linesFrom returns up to m.height lines starting at a.
func (m *Model) linesFrom(rc *renderCtx, a anchor) []string {
	var lines []string
	for i := a.item; i < len(m.t.entries) && len(lines) < m.height+a.line; i++ {
		lines = append(lines, m.display(rc, i)...)
	}
	if a.line >= len(lines) {
		return nil
	}
	return lines[a.line:]
}

// scroll moves the view by n lines (negative: up). Reaching the end turns
// following back on.
func (m *Model) scroll(n int) {
	if n == 0 || len(m.t.entries) == 0 {
		return
	}
	rc := m.renderCtx()
	if m.follow {
		if n > 0 {
			return
		}
		m.bottomLines(rc) // sets m.top to the current first line
	}
	i, off := m.top.item, m.top.line
	if n < 0 {
		for up := -n; up > 0; {
			if off >= up {
				off -= up
				break
			}
			up -= off
			off = 0
			if i == 0 {
				break
			}
			i--
			off = m.rows(rc, i)
		}
		m.follow = false
	} else {
		off += n
		for i < len(m.t.entries)-1 && off >= m.rows(rc, i) {
			off -= m.rows(rc, i)
			i++
		}
		if i == len(m.t.entries)-1 {
			off = min(off, m.rows(rc, i)-1)
		}
	}
	m.top = anchor{item: i, line: off}
	if m.atEnd(rc) {
		m.follow, m.unseen = true, false
	}
}

// atEnd reports whether the view from m.top reaches the last line.
func (m *Model) atEnd(rc *renderCtx) bool {
	left := -m.top.line
	for i := m.top.item; i < len(m.t.entries); i++ {
		left += m.rows(rc, i)
		if left > m.height {
			return false
		}
	}
	return true
}

// below reports whether item i starts below the visible area; only then
// does a change to it count as unseen output.
func (m *Model) below(i int) bool {
	if i < m.top.item {
		return false
	}
	rc := m.renderCtx()
	n := -m.top.line
	for j := m.top.item; j < i; j++ {
		n += m.rows(rc, j)
		if n >= m.height {
			return true
		}
	}
	return false
}

// reveal scrolls so that item i is visible.
func (m *Model) reveal(i int) {
	if i < 0 || i >= len(m.t.entries) || m.height <= 0 {
		return
	}
	rc := m.renderCtx()
	if m.follow {
		m.bottomLines(rc)
	}
	if i < m.top.item || (i == m.top.item && m.top.line > 0) {
		m.follow, m.top = false, anchor{item: i}
		return
	}
	end := -m.top.line // rows from the top of the view to the end of item i
	for j := m.top.item; j <= i; j++ {
		end += m.rows(rc, j)
	}
	if end > m.height {
		m.scroll(min(end-m.height, end-m.rows(rc, i)))
	}
}
