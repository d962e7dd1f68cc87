package inspect

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent/runner/inspector"
	"github.com/steer-tui/steer/tui/sanitize"
)

// columnGap separates two columns; markWidth is the selection mark's.
const (
	columnGap = 2
	markWidth = 2
	// minColumn is the narrowest a column is squeezed to.
	minColumn = 4
)

// widths lays the columns out in width cells: each as wide as its title and
// widest cell (at most its Max). When they do not fit, the columns with a
// Drop are left out (width 0), highest first, then the widest one gives
// way, one cell at a time, down to minColumn.
func widths(t inspector.Table, width int) []int {
	w := make([]int, len(t.Columns))
	for i, c := range t.Columns {
		w[i] = ansi.StringWidth(c.Title)
		for _, r := range t.Rows {
			if i < len(r.Cells) {
				w[i] = max(w[i], ansi.StringWidth(clean(r.Cells[i].Text)))
			}
		}
		if c.Max > 0 {
			w[i] = min(w[i], c.Max)
		}
	}
	room := func() int { return width - markWidth - columnGap*max(shown(w)-1, 0) }
	for sum(w) > room() {
		drop := -1
		for i, c := range t.Columns {
			if w[i] > 0 && c.Drop > 0 && (drop < 0 || c.Drop > t.Columns[drop].Drop) {
				drop = i
			}
		}
		if drop < 0 {
			break
		}
		w[drop] = 0
	}
	for sum(w) > room() {
		widest := 0
		for i := range w {
			if w[i] > w[widest] {
				widest = i
			}
		}
		if w[widest] <= minColumn {
			break
		}
		w[widest]--
	}
	return w
}

// shown counts the columns not left out.
func shown(w []int) int {
	n := 0
	for _, x := range w {
		if x > 0 {
			n++
		}
	}
	return n
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// clean makes text from the runtime (ids, engine errors) safe and one line.
func clean(s string) string {
	return sanitize.String(strings.Join(strings.Fields(s), " "), sanitize.Options{})
}

// fit cuts or pads s to exactly w cells.
func fit(s string, w int) string {
	s = ansi.Truncate(s, w, "…")
	return s + strings.Repeat(" ", max(w-ansi.StringWidth(s), 0))
}
