package inspect

import (
	"slices"
	"testing"

	"github.com/steer-tui/steer/agent/runner/inspector"
)

func TestWidths(t *testing.T) {
	table := func(cols []inspector.Column, cells ...string) inspector.Table {
		row := inspector.Row{}
		for _, c := range cells {
			row.Cells = append(row.Cells, inspector.Cell{Text: c})
		}
		return inspector.Table{Columns: cols, Rows: []inspector.Row{row}}
	}
	for _, c := range []struct {
		name  string
		t     inspector.Table
		width int
		want  []int
	}{
		{"as wide as the widest of title and cells", table([]inspector.Column{{Title: "ID"}, {Title: "STATE"}}, "scripted:primary", "ok"), 80, []int{16, 5}},
		{"bounded by Max", table([]inspector.Column{{Title: "ID", Max: 8}, {Title: "STATE"}}, "scripted:primary", "ok"), 80, []int{8, 5}},
		// 2 for the mark, 2 between: 26 leaves 22 for the cells.
		{"the widest gives way", table([]inspector.Column{{Title: "ID"}, {Title: "STATE"}}, "scripted:primary", "available"), 26, []int{13, 9}},
		{"a column with a Drop is left out before any is cut", table([]inspector.Column{{Title: "ID"}, {Title: "STATE"}, {Title: "LAST", Drop: 1}},
			"scripted:primary", "available", "just now"), 29, []int{16, 9, 0}},
		{"the highest Drop first", table([]inspector.Column{{Title: "ID"}, {Title: "A", Drop: 1}, {Title: "B", Drop: 2}},
			"scripted:primary", "aaaaaa", "bbbbbb"), 28, []int{16, 6, 0}},
		{"never below the minimum", table([]inspector.Column{{Title: "ID"}, {Title: "STATE"}}, "scripted:primary", "available"), 5, []int{4, 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := widths(c.t, c.width); !slices.Equal(got, c.want) {
				t.Fatalf("widths = %v, want %v", got, c.want)
			}
		})
	}
}
