package chat

import (
	"slices"
	"strings"

	"github.com/charmbracelet/glamour"
	gansi "github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/tui/sanitize"
)

// markdown renders assistant text at one width. It holds two Glamour
// renderers: the full style for finished blocks and whole messages, and the
// same style without syntax highlighting for the open block of a streaming
// message, which is re-rendered on every flush. Renderers are stateful and
// not safe for concurrent use; the chat model uses them on the Update
// goroutine only and rebuilds them when the width changes. Paragraphs of
// plain prose skip Glamour when prose renders them identically (see prose).
type markdown struct {
	width      int
	full, fast *glamour.TermRenderer
	prose      bool // prose agrees with Glamour at this width and style
}

func newMarkdown(width int, full, fast gansi.StyleConfig, profile termenv.Profile) *markdown {
	md := &markdown{width: width}
	md.full, _ = glamour.NewTermRenderer(glamour.WithStyles(full), glamour.WithWordWrap(width), glamour.WithColorProfile(profile))
	md.fast, _ = glamour.NewTermRenderer(glamour.WithStyles(fast), glamour.WithWordWrap(width), glamour.WithColorProfile(profile))
	md.prose = md.full != nil && proseAgrees(md)
	return md
}

// render returns the lines of src rendered, trimmed of the blank lines and
// trailing padding Glamour puts around a document: by prose when src is
// paragraphs of plain prose and prose agrees with Glamour here, else by
// Glamour (fast: without highlighting).
func (md *markdown) render(src string, fast bool) []string {
	src = sanitize.String(src, sanitize.Options{})
	if md.prose {
		if paras, ok := proseParagraphs(src); ok {
			var out []string
			for _, p := range paras {
				out = appendBlock(out, prose(p, md.width))
			}
			return out
		}
	}
	return md.glamour(src, fast)
}

// glamour renders src, already sanitised, with Glamour, and sanitises its
// output again keeping only its colours: the markdown parser decodes
// character references such as "&#x1b;" into the very control characters
// the first pass removed.
func (md *markdown) glamour(src string, fast bool) []string {
	r := md.full
	if fast {
		r = md.fast
	}
	var out string
	var err error
	if r != nil {
		out, err = r.Render(src)
	}
	if r == nil || err != nil {
		return wrapLines(src, md.width)
	}
	return trimBlank(splitLines(sanitize.String(out, sanitize.Options{AllowSGR: true})))
}

// stream is the markdown of a message that is still arriving. Text before
// cut is split into finished blocks at safe boundaries, each rendered once
// per width; only the open block after cut is re-rendered as text arrives.
// When the message ends, the exact render replaces the pieces (see exact).
type stream struct {
	src    string
	cut    int        // src[:cut] is made of finished blocks
	blocks []string   // source of each finished block
	done   [][]string // rendered finished blocks, at width
	width  int
	tail   []string // rendered open block
	final  []string // exact render after the message ended
	ended  bool
}

// set replaces the text with src, which normally extends the previous text.
// It reports whether anything changed.
func (s *stream) set(src string) bool {
	if src == s.src {
		return false
	}
	if !strings.HasPrefix(src, s.src[:s.cut]) {
		*s = stream{width: s.width} // rewritten: start over
	}
	s.src = src
	for {
		n := safeCut(src[s.cut:])
		if n == 0 {
			break
		}
		s.blocks = append(s.blocks, src[s.cut:s.cut+n])
		s.done = append(s.done, nil)
		s.cut += n
	}
	s.tail, s.final = nil, nil
	return true
}

// end marks the text complete; the next lines call renders it whole.
func (s *stream) end() { s.ended, s.final = true, nil }

// lines renders what is not cached at md's width and returns every line.
func (s *stream) lines(md *markdown) []string {
	if s.width != md.width {
		s.width, s.tail, s.final = md.width, nil, nil
		for i := range s.done {
			s.done[i] = nil
		}
	}
	if s.ended {
		if s.final == nil {
			s.final = s.exact(md)
		}
		return s.final
	}
	out := s.finished(md)
	if open := s.src[s.cut:]; strings.TrimSpace(open) != "" {
		if s.tail == nil {
			s.tail = md.render(open, true)
		}
		out = appendBlock(out, s.tail)
	}
	return out
}

// finished renders what is not cached of the finished blocks and returns
// their lines.
func (s *stream) finished(md *markdown) []string {
	var out []string
	for i, b := range s.blocks {
		if s.done[i] == nil {
			s.done[i] = md.render(b, false)
			if s.done[i] == nil {
				s.done[i] = []string{}
			}
		}
		out = appendBlock(out, s.done[i])
	}
	return out
}

// exact is the render of the whole ended text. A finished block of plain
// prose (paragraphs and headings) renders alone exactly as within the
// whole, so when every finished block is one, they stand and only the open
// block is rendered again, in the full style: a long answer is not rendered
// twice at its end. Anything else (lists and quotes, whose spacing depends
// on what follows; fences, tables, HTML; link and footnote definitions,
// which reach back across blocks) gets one render of the whole text.
func (s *stream) exact(md *markdown) []string {
	if strings.Contains(s.src, "]:") || slices.ContainsFunc(s.blocks, notPlainProse) {
		return md.render(s.src, false)
	}
	out := s.finished(md)
	if open := s.src[s.cut:]; strings.TrimSpace(open) != "" {
		out = appendBlock(out, md.render(open, false))
	}
	return out
}

// notPlainProse reports whether block is more than paragraphs and
// headings: a line of it opens a list, a quote, a fence, a table, HTML or
// indented code.
func notPlainProse(block string) bool {
	for line := range strings.Lines(block) {
		if strings.TrimSpace(line) != "" && classify(strings.TrimRight(line, "\n")) != blockParagraph {
			return true
		}
	}
	return false
}

// appendBlock joins rendered blocks with one blank line between them.
func appendBlock(out, block []string) []string {
	if len(block) == 0 {
		return out
	}
	if len(out) > 0 {
		out = append(out, "")
	}
	return append(out, block...)
}

// safeCut returns the length of the finished blocks at the start of text:
// everything up to and including a blank line that ends a block no later
// text can change. It returns 0 when there is none yet. A boundary is safe
// when no fence is open and the block before it is a paragraph, heading,
// fenced code or table; after a list or a quote, whose items may continue
// past a blank line, the boundary becomes safe only once the next line is
// seen to start a new, unindented, different block. HTML blocks and
// indented code are never split; the final render settles them.
func safeCut(text string) int {
	var (
		fence      string // the open fence's marker, "" when none
		kind       blockKind
		pending    = -1 // a blank line after a list or quote: where a cut would go
		lastSafe   int
		lineStart  int
		sawContent bool
	)
	for lineStart < len(text) {
		nl := strings.IndexByte(text[lineStart:], '\n')
		if nl < 0 {
			break // an incomplete line decides nothing
		}
		line := text[lineStart : lineStart+nl]
		next := lineStart + nl + 1
		trimmed := strings.TrimSpace(line)
		switch {
		case fence != "":
			if strings.HasPrefix(strings.TrimLeft(line, " "), fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
			}
		case trimmed == "":
			if !sawContent {
				break
			}
			switch kind {
			case blockParagraph, blockFence, blockTable:
				lastSafe, kind, sawContent, pending = next, blockNone, false, -1
			case blockList, blockQuote:
				if pending < 0 {
					pending = next
				}
			}
		default:
			if pending >= 0 {
				if !continues(kind, line) {
					lastSafe = pending
					kind, sawContent = blockNone, false
				}
				pending = -1
			}
			if !sawContent {
				kind, sawContent = classify(line), true
			}
			if f := fenceMarker(line); f != "" {
				fence = f
				if kind == blockParagraph {
					kind = blockFence
				}
			}
		}
		lineStart = next
	}
	return lastSafe
}

type blockKind int

const (
	blockNone blockKind = iota
	blockParagraph
	blockFence
	blockTable
	blockList
	blockQuote
	blockOther // HTML, indented code: never split after
)

func classify(line string) blockKind {
	indent := len(line) - len(strings.TrimLeft(line, " "))
	t := strings.TrimLeft(line, " ")
	switch {
	case strings.HasPrefix(line, "\t") || indent >= 4:
		return blockOther
	case strings.HasPrefix(t, "<"):
		return blockOther
	case fenceMarker(line) != "":
		return blockFence
	case strings.HasPrefix(t, ">"):
		return blockQuote
	case strings.HasPrefix(t, "|"):
		return blockTable
	case isListItem(t):
		return blockList
	}
	return blockParagraph
}

// continues reports whether line, after a blank line, still belongs to a
// list or quote block.
func continues(kind blockKind, line string) bool {
	if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") {
		return true
	}
	if kind == blockQuote {
		return strings.HasPrefix(line, ">")
	}
	return isListItem(line)
}

func isListItem(t string) bool {
	if len(t) >= 2 && strings.ContainsRune("-*+", rune(t[0])) && (t[1] == ' ' || t[1] == '\t') {
		return true
	}
	i := 0
	for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' '
}

// fenceMarker returns the fence that line opens or closes (``` or ~~~, as
// long as written), or "".
func fenceMarker(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 {
		return ""
	}
	return t[:n]
}

func splitLines(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") }

// trimBlank drops blank lines at both ends and the invisible padding at the
// end of every line.
func trimBlank(lines []string) []string {
	for i := range lines {
		lines[i] = trimRightStyled(lines[i])
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// trimRightStyled removes trailing spaces and the styling around them
// (Glamour pads every line to the wrap width, one styled space at a time),
// closing the styles with a reset if any were used.
func trimRightStyled(line string) string {
	if !strings.ContainsRune(line, ansi.ESC) {
		return strings.TrimRight(line, " ")
	}
	var state byte
	end, styled := 0, false
	for i := 0; i < len(line); {
		seq, width, n, st := ansi.DecodeSequence(line[i:], state, nil)
		state = st
		if n <= 0 {
			break
		}
		if width == 0 && len(seq) > 0 && seq[0] == ansi.ESC {
			styled = true
		} else if strings.TrimSpace(seq) != "" {
			end = i + n
		}
		i += n
	}
	if end == 0 {
		return ""
	}
	if styled {
		return line[:end] + ansi.ResetStyle
	}
	return line[:end]
}

// wrapLines wraps sanitised text (no tabs) to width, each line separately.
func wrapLines(s string, width int) []string {
	if width < 1 {
		width = 1
	}
	return strings.Split(ansi.Wrap(s, width, ""), "\n")
}
