package input

import (
	"strings"
	"unicode"

	"github.com/mattn/go-runewidth"
)

// editor is a small multi-line text buffer with a cursor. It knows nothing
// about keys or styles; Model maps bindings onto its operations.
type editor struct {
	lines    [][]rune
	row, col int
}

func newEditor() editor { return editor{lines: [][]rune{{}}} }

func (e *editor) value() string {
	parts := make([]string, len(e.lines))
	for i, l := range e.lines {
		parts[i] = string(l)
	}
	return strings.Join(parts, "\n")
}

// setValue replaces the text and puts the cursor at its end.
func (e *editor) setValue(s string) {
	*e = newEditor()
	e.insert(s)
}

func (e *editor) empty() bool { return len(e.lines) == 1 && len(e.lines[0]) == 0 }

// insert types s at the cursor. Newlines split lines, tabs become spaces
// and other control characters are dropped.
func (e *editor) insert(s string) {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	for _, r := range s {
		switch {
		case r == '\n':
			e.newline()
		case r == '\t':
			e.insertRune(' ')
			e.insertRune(' ')
		case unicode.IsControl(r):
		default:
			e.insertRune(r)
		}
	}
}

func (e *editor) insertRune(r rune) {
	l := e.lines[e.row]
	l = append(l[:e.col], append([]rune{r}, l[e.col:]...)...)
	e.lines[e.row] = l
	e.col++
}

func (e *editor) newline() {
	l := e.lines[e.row]
	rest := append([]rune(nil), l[e.col:]...)
	e.lines[e.row] = l[:e.col:e.col]
	e.lines = append(e.lines[:e.row+1], append([][]rune{rest}, e.lines[e.row+1:]...)...)
	e.row, e.col = e.row+1, 0
}

func (e *editor) backspace() {
	switch {
	case e.col > 0:
		l := e.lines[e.row]
		e.lines[e.row] = append(l[:e.col-1], l[e.col:]...)
		e.col--
	case e.row > 0:
		prev := e.lines[e.row-1]
		e.col = len(prev)
		e.lines[e.row-1] = append(prev, e.lines[e.row]...)
		e.lines = append(e.lines[:e.row], e.lines[e.row+1:]...)
		e.row--
	}
}

func (e *editor) deleteForward() {
	l := e.lines[e.row]
	switch {
	case e.col < len(l):
		e.lines[e.row] = append(l[:e.col], l[e.col+1:]...)
	case e.row < len(e.lines)-1:
		e.lines[e.row] = append(l, e.lines[e.row+1]...)
		e.lines = append(e.lines[:e.row+1], e.lines[e.row+2:]...)
	}
}

func (e *editor) left() {
	switch {
	case e.col > 0:
		e.col--
	case e.row > 0:
		e.row--
		e.col = len(e.lines[e.row])
	}
}

func (e *editor) right() {
	switch {
	case e.col < len(e.lines[e.row]):
		e.col++
	case e.row < len(e.lines)-1:
		e.row, e.col = e.row+1, 0
	}
}

// up and down move between lines; they report false at the first or last
// line so that the caller can use the key for something else.
func (e *editor) up() bool {
	if e.row == 0 {
		return false
	}
	e.row--
	e.col = min(e.col, len(e.lines[e.row]))
	return true
}

func (e *editor) down() bool {
	if e.row == len(e.lines)-1 {
		return false
	}
	e.row++
	e.col = min(e.col, len(e.lines[e.row]))
	return true
}

func (e *editor) home() { e.col = 0 }
func (e *editor) end()  { e.col = len(e.lines[e.row]) }

func (e *editor) wordLeft() {
	l := e.lines[e.row]
	if e.col == 0 {
		e.left()
		return
	}
	for e.col > 0 && unicode.IsSpace(l[e.col-1]) {
		e.col--
	}
	for e.col > 0 && !unicode.IsSpace(l[e.col-1]) {
		e.col--
	}
}

func (e *editor) wordRight() {
	l := e.lines[e.row]
	if e.col == len(l) {
		e.right()
		return
	}
	for e.col < len(l) && unicode.IsSpace(l[e.col]) {
		e.col++
	}
	for e.col < len(l) && !unicode.IsSpace(l[e.col]) {
		e.col++
	}
}

func (e *editor) deleteWordBack() {
	if e.col == 0 {
		e.backspace()
		return
	}
	end := e.col
	e.wordLeft()
	l := e.lines[e.row]
	e.lines[e.row] = append(l[:e.col], l[end:]...)
}

func (e *editor) killToStart() {
	e.lines[e.row] = append([]rune(nil), e.lines[e.row][e.col:]...)
	e.col = 0
}

func (e *editor) killToEnd() {
	if e.col == len(e.lines[e.row]) {
		e.deleteForward()
		return
	}
	e.lines[e.row] = e.lines[e.row][:e.col]
}

// visual is one screen line of the wrapped text: a slice of logical line
// row from rune start to rune end.
type visual struct{ row, start, end int }

// layout wraps every line to width cells and returns the screen lines and
// the index of the one holding the cursor.
func (e *editor) layout(width int) (lines []visual, cursor int) {
	width = max(width, 2)
	for row, l := range e.lines {
		start, w := 0, 0
		for i, r := range l {
			rw := runewidth.RuneWidth(r)
			if w+rw > width-1 && i > start { // keep a cell for the cursor
				lines = append(lines, visual{row, start, i})
				start, w = i, 0
			}
			w += rw
		}
		lines = append(lines, visual{row, start, len(l)})
	}
	for i, v := range lines {
		next := i+1 < len(lines) && lines[i+1].row == v.row
		if v.row == e.row && e.col >= v.start && (e.col < v.end || !next) {
			return lines, i
		}
	}
	return lines, len(lines) - 1
}
