// Package sanitize makes model and tool text safe to print: it is the one
// place every such string passes through before it is styled.
//
// Glamour and lipgloss pass escape sequences through unchanged, and
// ansi.Strip leaves carriage returns, backspaces, BEL, C1 controls and bidi
// overrides in place. String removes all of them:
//
//   - escape sequences (CSI, OSC — clipboard writes, hyperlinks, titles —,
//     DCS, SOS, PM, APC and two-byte ESC sequences), whether introduced by
//     ESC or by a C1 control; SGR colour sequences survive only when
//     Options.AllowSGR is set (tool output the user opted into);
//   - C0 controls except newline, DEL and the C1 range;
//   - bidi embedding, override and isolate controls (U+202A–U+202E,
//     U+2066–U+2069), which can make text read differently than it runs;
//   - invalid UTF-8, replaced by U+FFFD.
//
// A carriage return not followed by a newline starts its line over, as a
// terminal would (progress bars keep their last state); "\r\n" is a newline.
// A tab becomes the spaces to the next multiple of four columns: a terminal
// moves a tab to its next tab stop, which a layout measuring the text cannot
// know, so a line with tabs overflowed its width and left stale cells on the
// screen.
package sanitize

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Options tune String. The zero value removes every escape sequence.
type Options struct {
	// AllowSGR keeps SGR (colour and text attribute) sequences, for tool
	// output when the user enables colours.
	AllowSGR bool
}

// tabStop is the columns between tab stops.
const tabStop = 4

// spaces pads a tab (tabStop of them at most).
const spaces = "    "

// String returns s without escape sequences or control characters except
// "\n", its tabs as spaces to the next tab stop (see the package doc).
func String(s string, opts Options) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	// The current line is built apart and joins b at its newline, so that a
	// lone "\r" starts it over by truncating it: copying b's whole content on
	// each one made progress-bar output cost quadratic time. A tab's column
	// is measured from the last tab's (tabCol, at tabAt in line), so that a
	// line of many tabs is measured once.
	var line []byte
	tabCol, tabAt := 0, 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			b.Write(line)
			b.WriteByte(c)
			line, tabCol, tabAt = line[:0], 0, 0
			i++
		case c == '\t':
			col := tabCol + ansi.StringWidth(string(line[tabAt:]))
			pad := tabStop - col%tabStop
			line = append(line, spaces[:pad]...)
			tabCol, tabAt = col+pad, len(line)
			i++
		case c == '\r':
			i++
			if i < len(s) && s[i] == '\n' {
				continue // "\r\n" is a newline, written next
			}
			line, tabCol, tabAt = line[:0], 0, 0
		case c == ansi.ESC:
			seq, _, n, _ := ansi.DecodeSequence(s[i:], ansi.NormalState, nil)
			if n <= 0 {
				n = 1
			}
			if opts.AllowSGR && isSGR(seq) {
				line = append(line, seq...)
			}
			i += n
		case c < 0x20 || c == 0x7f:
			i++
		case c < utf8.RuneSelf:
			j := i + 1 // printable ASCII, the bulk of most output, is copied in runs
			for j < len(s) && s[j] >= 0x20 && s[j] < 0x7f {
				j++
			}
			line = append(line, s[i:j]...)
			i = j
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size
			switch {
			case r == utf8.RuneError && size == 1:
				line = utf8.AppendRune(line, utf8.RuneError)
			case r >= 0x80 && r <= 0x9f:
				i += skipC1(s[i:], r)
			case isBidiControl(r):
			default:
				line = utf8.AppendRune(line, r)
			}
		}
	}
	b.Write(line)
	return b.String()
}

// clean reports whether s needs no change: printable ASCII and newlines,
// or UTF-8 without C1 and bidi controls. It keeps the common case
// allocation-free.
func clean(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n') || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || (r >= 0x80 && r <= 0x9f) || isBidiControl(r) {
			return false
		}
		i += size
	}
	return true
}

// isSGR reports whether seq is a complete "ESC [ params m" sequence with no
// private prefix or intermediates.
func isSGR(seq string) bool {
	if len(seq) < 3 || seq[0] != ansi.ESC || seq[1] != '[' || seq[len(seq)-1] != 'm' {
		return false
	}
	for _, c := range []byte(seq[2 : len(seq)-1]) {
		if (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}

// skipC1 returns how many bytes of rest belong to the sequence that the C1
// control r introduces: CSI (U+009B) runs to its final byte, OSC, DCS, SOS,
// PM and APC to BEL or a string terminator; other C1 controls stand alone.
func skipC1(rest string, r rune) int {
	switch r {
	case 0x9b: // CSI: parameter and intermediate bytes, then one final byte
		for i := 0; i < len(rest); i++ {
			if c := rest[i]; c >= 0x40 && c <= 0x7e {
				return i + 1
			} else if c < 0x20 || c > 0x7e {
				return i
			}
		}
		return len(rest)
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f: // OSC, DCS, SOS, PM, APC
		for i := 0; i < len(rest); i++ {
			switch {
			case rest[i] == 0x07:
				return i + 1
			case rest[i] == ansi.ESC && i+1 < len(rest) && rest[i+1] == '\\':
				return i + 2
			case strings.HasPrefix(rest[i:], "\u009c"):
				return i + len("\u009c")
			case rest[i] == '\n':
				return i // an unterminated string never eats the next line
			}
		}
		return len(rest)
	}
	return 0
}

// isBidiControl reports the explicit directional embedding, override and
// isolate controls.
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
