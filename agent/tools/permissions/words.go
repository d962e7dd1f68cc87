package permissions

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// word is one shell word as the rules see it.
type word struct {
	// text is the word after shell unquoting when lit, else its source text.
	text string
	// lit: the word is fully literal (quotes and escapes only), so text is
	// exactly what the command receives.
	lit bool
	// glob: an unquoted *, ? or [ that the shell would expand as a pattern.
	glob bool
	// pos is the word's offset in the top-level command, for source order.
	pos int
}

// maxBraceWords bounds the brace expansion of a command word; past it the
// word is judged unknown rather than expanded.
const maxBraceWords = 64

// texts returns the words' texts, the form a part's Text joins.
func texts(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text
	}
	return out
}

// allLit reports whether every word is literal.
func allLit(ws []word) bool {
	for _, w := range ws {
		if !w.lit {
			return false
		}
	}
	return true
}

// convert turns a parsed word into a word of sc's source.
func (sc scope) convert(wd *syntax.Word) word {
	w := word{pos: sc.pos(wd)}
	if text, glob, ok := literal(wd.Parts, false); ok {
		w.text, w.glob, w.lit = text, glob, true
		return w
	}
	w.text = sc.snippet(wd)
	return w
}

// convertBraces converts a word of a simple command, applying brace
// expansion as bash does to each before it runs anything: {rm,-rf,x} is the
// command rm -rf x, and so is sudo {rm,-rf,x}'s inner command. An expansion
// too large to list yields one word that is not literal.
func (sc scope) convertBraces(wd *syntax.Word) []word {
	// SplitBraces rewrites the word's parts: work on a copy, so that the
	// tree stays one syntax.Walk can read.
	split := &syntax.Word{Parts: slices.Clone(wd.Parts)}
	if !syntax.SplitBraces(split) {
		return []word{sc.convert(wd)}
	}
	var out []word
	for ex, err := range expand.BracesSeq(nil, split) {
		if err != nil || len(out) == maxBraceWords {
			return []word{{text: sc.snippet(wd), pos: sc.pos(wd)}}
		}
		w := sc.convert(ex)
		w.pos = sc.pos(wd)
		out = append(out, w)
	}
	return out
}

// literal returns the value of word parts made only of literals and quotes,
// with ok false when any part needs expanding (a parameter, a substitution,
// arithmetic, an extended glob, a brace expansion).
func literal(parts []syntax.WordPart, quoted bool) (text string, glob bool, ok bool) {
	var b strings.Builder
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			s, g := unescape(p.Value, quoted)
			b.WriteString(s)
			glob = glob || g
		case *syntax.SglQuoted:
			if p.Dollar {
				b.WriteString(ansiC(p.Value))
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			s, _, inner := literal(p.Parts, true)
			if !inner {
				return "", false, false
			}
			b.WriteString(s)
		default:
			return "", false, false
		}
	}
	return b.String(), glob, true
}

// unescape removes the backslashes the shell removes from a literal: before
// any byte outside double quotes, before $ ` " \ and newline inside them. It
// also reports an unescaped glob character outside quotes.
func unescape(s string, quoted bool) (string, bool) {
	var b strings.Builder
	glob, bracket := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			next := s[i+1]
			if !quoted || strings.IndexByte("$`\"\\\n", next) >= 0 {
				i++
				if next != '\n' {
					b.WriteByte(next)
				}
				continue
			}
		}
		if !quoted {
			// A [ is a pattern only when a ] closes it: "[ -f x ]" runs [.
			glob = glob || c == '*' || c == '?' || c == ']' && bracket
			bracket = bracket || c == '['
		}
		b.WriteByte(c)
	}
	return b.String(), glob
}

// ansiC decodes the backslash escapes of bash's $'…' quoting, so that
// $'\x72m' is the command rm.
func ansiC(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		case 'x', 'u', 'U':
			width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			n, used := digits(s[i+1:], 16, width)
			if used == 0 {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			i += used
			if c == 'x' {
				b.WriteByte(byte(n))
			} else {
				b.WriteRune(rune(n))
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, used := digits(s[i:], 8, 3)
			i += used - 1
			b.WriteByte(byte(n))
		default:
			// \\ \' \" \? stand for the character; bash keeps the
			// backslash of any other pair.
			if strings.IndexByte(`\'"?`, c) < 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

// digits reads up to width digits of base at the start of s.
func digits(s string, base, width int) (n uint64, used int) {
	for used < width && used < len(s) {
		d, err := strconv.ParseUint(s[used:used+1], base, 8)
		if err != nil {
			break
		}
		n = n*uint64(base) + d
		used++
	}
	return n, used
}
