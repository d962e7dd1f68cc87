package chat

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/reflow/wordwrap"
)

// Most of a long answer is paragraphs of plain words, and Glamour spends
// ~66 µs on each (parsing, its element tree, a writer chain per rune):
// rendered once per block, that is most of the TUI's cost on a long stream
// (issue 16). A paragraph with nothing markdown could read as syntax
// renders as its text wrapped, so prose renders it with the same two wraps
// Glamour applies, without the rest. The markdown type uses it only when a
// probe at its width renders exactly as Glamour does (proseAgrees), and a
// differential test holds it to Glamour on random paragraphs and widths.

// proseBreakpoints are where Glamour's document block wraps its content a
// second time (glamour/ansi.BlockElement.Finish).
const proseBreakpoints = " ,.;-+|"

// proseProbes are paragraphs whose render proseAgrees compares with
// Glamour's: wrapping after a hyphen, a line one column too long for the
// first wrap (which the second wrap breaks again), punctuation.
var proseProbes = [...]string{
	"Plain words, wrapped (as Glamour does): with some-hyphenated words and more words to wrap around; the line is long enough to break twice? Yes!",
	"Short.",
}

// isPlainProse reports whether src is one paragraph that Glamour renders
// as its words alone: one line of ASCII letters, digits, spaces and
// punctuation that is never markdown syntax (no emphasis, code, links,
// HTML, entities, escapes, colons of emoji or URLs, "www." of autolinks),
// starting with a letter so that it opens no list, heading or quote, with
// no run of spaces, followed by nothing but newlines. Spaces at its end are
// allowed: a paragraph ends there, so Markdown drops them.
func isPlainProse(src string) bool {
	line := proseLine(src)
	if line == "" || !isASCIILetter(line[0]) ||
		strings.Contains(line, "  ") || strings.Contains(strings.ToLower(line), "www.") {
		return false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		if !isASCIILetter(c) && !(c >= '0' && c <= '9') && !strings.ContainsRune(" .,;?!'\"()-/%$", rune(c)) {
			return false
		}
	}
	return true
}

// proseParagraphs splits src into its paragraphs when every one is plain
// prose (isPlainProse) and they are apart, a blank line or more between
// each: ok is false for anything else, which Glamour renders.
func proseParagraphs(src string) (paras []string, ok bool) {
	blank := true // the line before was blank, or there was none
	for line := range strings.Lines(src) {
		if strings.TrimSpace(line) == "" {
			if strings.Trim(line, "\n") != "" {
				return nil, false // a line of spaces: leave it to Glamour
			}
			blank = true
			continue
		}
		if !blank || !isPlainProse(line) {
			return nil, false
		}
		paras, blank = append(paras, line), false
	}
	return paras, len(paras) > 0
}

// proseLine is the paragraph's text: src without the newlines and spaces
// at its end.
func proseLine(src string) string { return strings.TrimRight(src, "\n ") }

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// prose renders src, which isPlainProse, as Glamour does at width: the
// paragraph's word wrap, its lines padded to the width, the document's
// second wrap at proseBreakpoints; trimmed as markdown.render trims.
func prose(src string, width int) []string {
	ww := wordwrap.NewWriter(width)
	ww.KeepNewlines = false
	_, _ = ww.Write([]byte(proseLine(src)))
	_ = ww.Close()
	var padded strings.Builder
	for line := range strings.Lines(ww.String() + "\n") {
		line = strings.TrimSuffix(line, "\n")
		padded.WriteString(line)
		padded.WriteString(strings.Repeat(" ", max(width-len(line), 0)))
		padded.WriteByte('\n')
	}
	return trimBlank(splitLines(ansi.Wordwrap(padded.String(), width, proseBreakpoints)))
}

// proseAgrees reports whether prose renders every probe as md's full
// renderer does at its width: the style may add margins, colours or
// prefixes that prose does not know.
func proseAgrees(md *markdown) bool {
	for _, p := range proseProbes {
		if !slices.Equal(prose(p, md.width), md.glamour(p, false)) {
			return false
		}
	}
	return true
}
