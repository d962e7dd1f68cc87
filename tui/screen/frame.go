package screen

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// frame is what the terminal shows: the lines of the last view drawn, as
// the view had them (before they were cut to the width), and the size.
type frame struct {
	width, height int // 0: unknown, nothing is cut
	lines         []string
	clear         bool // the next update clears the terminal and draws every line
}

func (f *frame) resize(width, height int) {
	f.width, f.height, f.clear = width, height, true
}

// update writes to b what turns the terminal's content into view: the
// lines that changed, each moved to, cut to the width and erased to its
// end, and the rows below the view erased when it got shorter. A view
// taller than the terminal shows its last lines, as Bubble Tea's renderer
// does.
func (f *frame) update(b *bytes.Buffer, view string) {
	lines := strings.Split(view, "\n")
	if f.height > 0 && len(lines) > f.height {
		lines = lines[len(lines)-f.height:]
	}
	if f.clear {
		b.WriteString(ansi.EraseEntireScreen)
		f.lines, f.clear = nil, false
	}
	for i, line := range lines {
		if i < len(f.lines) && f.lines[i] == line {
			continue
		}
		moveTo(b, i)
		f.writeLine(b, line)
	}
	if len(lines) < len(f.lines) {
		moveTo(b, len(lines))
		b.WriteString(ansi.EraseScreenBelow)
	}
	f.lines = lines
}

// writeLine writes line cut to the width. The rest of the row is erased
// unless the line fills it: there the cursor waits on the last column,
// which an erase would blank.
func (f *frame) writeLine(b *bytes.Buffer, line string) {
	w := ansi.StringWidth(line)
	if f.width > 0 && w > f.width {
		line = ansi.Truncate(line, f.width, "")
		w = ansi.StringWidth(line) // a wide rune cut may leave a column free
	}
	b.WriteString(line)
	if f.width == 0 || w < f.width {
		b.WriteString(ansi.EraseLineRight)
	}
}

// moveTo puts the cursor at the start of row (0 is the top).
func moveTo(b *bytes.Buffer, row int) {
	b.WriteString("\x1b[")
	b.WriteString(strconv.Itoa(row + 1))
	b.WriteByte('H')
}
