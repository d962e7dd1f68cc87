package inspect

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent/runner/inspector"
)

// maxDetail bounds the lines of the selected row's details.
const maxDetail = 4

// View returns the inspector's box: as wide as its area, as tall as its
// rows need and at most its area. The owner draws it over the top of what
// it covers.
func (m Model) View() string { return m.rendered }

// inner is the width inside the box.
func (m Model) inner() int { return max(m.width-4, 10) }

// detailRoom is how many lines the details take: the most any row has, at
// most maxDetail, and fewer when the area is small.
func (m Model) detailRoom() int {
	n := 0
	for _, r := range m.table.Rows {
		n = max(n, len(m.wrapDetail(r)))
	}
	return min(n, maxDetail, max((m.height-2-4)/2, 0))
}

// rowsRoom is how many rows fit: the box less its title, the header and
// the details with the blank line before them.
func (m Model) rowsRoom() int {
	room := m.height - 2 - 2
	if d := m.detailRoom(); d > 0 {
		room -= d + 1
	}
	return max(room, 1)
}

// wrapDetail is row r's details wrapped to the box.
func (m Model) wrapDetail(r inspector.Row) []string {
	var out []string
	for _, l := range r.Detail {
		out = append(out, strings.Split(ansi.Wrap(clean(l), m.inner(), " "), "\n")...)
	}
	return out
}

func (m *Model) render() {
	st := m.d.Styles
	// The box is as tall as its rows need, at most the area.
	inner, rows := m.inner(), min(m.rowsRoom(), max(len(m.table.Rows), 1))
	if m.sel < m.offset {
		m.offset = m.sel
	}
	if m.sel >= m.offset+rows {
		m.offset = m.sel - rows + 1
	}
	m.offset = min(m.offset, max(len(m.table.Rows)-rows, 0))

	title := st.Title.Render(m.table.Title)
	if n := len(m.table.Rows); n > rows {
		title += st.Hint.Render(fmt.Sprintf("  %d/%d", m.sel+1, n))
	}
	if m.table.Summary != "" {
		title += st.Summary.Render(" · " + clean(m.table.Summary))
	}
	lines := []string{ansi.Truncate(title, inner, "…")}

	w := widths(m.table, inner)
	var head []string
	for i, c := range m.table.Columns {
		if w[i] > 0 {
			head = append(head, fit(c.Title, w[i]))
		}
	}
	lines = append(lines, ansi.Truncate(st.Header.Render(strings.Repeat(" ", markWidth)+strings.Join(head, strings.Repeat(" ", columnGap))), inner, ""))

	body := make([]string, 0, rows)
	if len(m.table.Rows) == 0 {
		body = append(body, st.Hint.Render(ansi.Truncate(strings.Repeat(" ", markWidth)+clean(m.table.Empty), inner, "…")))
	}
	for i := m.offset; i < len(m.table.Rows) && i < m.offset+rows; i++ {
		body = append(body, m.rowLine(i, w, inner))
	}
	for len(body) < rows {
		body = append(body, "")
	}
	lines = append(lines, body...)

	if d := m.detailRoom(); d > 0 {
		row, _ := m.Selected()
		detail := m.wrapDetail(row)
		lines = append(lines, "")
		for i := 0; i < d; i++ {
			l := ""
			if i < len(detail) {
				l = st.Detail.Render(ansi.Truncate(detail[i], inner, "…"))
			}
			lines = append(lines, l)
		}
	}
	m.rendered = st.Box.Width(inner + 2).Render(strings.Join(lines, "\n"))
}

// rowLine draws row i: the selection mark, then its cells in their tones
// (the selected row in the selection's style).
func (m *Model) rowLine(i int, w []int, inner int) string {
	st := m.d.Styles
	r := m.table.Rows[i]
	mark, selected := "  ", i == m.sel
	if selected {
		mark = "› "
	}
	cells := make([]string, 0, len(w))
	for c := range w {
		if w[c] == 0 {
			continue // left out: the screen is too narrow
		}
		var cell inspector.Cell
		if c < len(r.Cells) {
			cell = r.Cells[c]
		}
		s := fit(clean(cell.Text), w[c])
		style := st.Cell
		switch {
		case selected:
			style = st.Selected
		case cell.Tone == inspector.ToneOK:
			style = st.OK
		case cell.Tone == inspector.ToneWarn:
			style = st.Warn
		case cell.Tone == inspector.ToneBad:
			style = st.Bad
		}
		cells = append(cells, style.Render(s))
	}
	markStyle := st.Cell
	if selected {
		markStyle = st.Selected
	}
	line := markStyle.Render(mark) + strings.Join(cells, strings.Repeat(" ", columnGap))
	return ansi.Truncate(line, inner, "")
}
