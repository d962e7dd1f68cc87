package agent

import (
	"encoding/json"
	"maps"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// cheapSnapshot is how many values a partialArgs snapshot may copy and still
// be rebuilt after every piece. The open containers of ordinary arguments hold
// a handful; a long open array is re-snapshotted only once as many bytes as
// the copy costs have arrived, which keeps the total cost linear.
const cheapSnapshot = 64

// partialArgs parses a tool call's argument JSON as it streams, so that each
// piece costs time in proportion to its own length rather than to everything
// received so far (ParsePartialJSON on every piece made a 200 KB argument
// cost seconds). Finished values are decoded once and kept; the string being
// streamed grows in a strings.Builder, whose String shares its bytes.
//
// value returns what ParsePartialJSON returns for the text so far, except
// where that would flicker: a string does not show an escape or a UTF-8
// sequence that has only partly arrived (ParsePartialJSON shows U+FFFD for a
// cut character and drops a member whose \u escape is cut), and an array
// whose first item is a half literal stays an empty array. Once the text
// cannot be a JSON object, value keeps the last value it had; the exact
// parse when the call ends decides.
type partialArgs struct {
	state argState
	stack []*argFrame     // the open containers, outermost first
	root  map[string]any  // the top-level object, once closed
	last  map[string]any  // the latest snapshot; never mutated once built
	since int             // bytes written since last was built
	str   strings.Builder // the string or key being read, decoded
	isKey bool            // str is a key
	esc   int             // escNone, escBackslash, or escUnicode + hex digits read
	hex   rune            // the \u escape's value so far
	high  rune            // a high surrogate waiting for its low half
	tok   []byte          // the number or literal being read
	carry string          // a UTF-8 sequence cut by the end of a piece
}

type argState uint8

const (
	argValue     argState = iota // a value may start (after ':', or ',' in an array)
	argFirstKey                  // after '{': a key or '}'
	argKey                       // after ',' in an object: a key
	argColon                     // after a key
	argFirstItem                 // after '[': a value or ']'
	argAfter                     // after a value: ',' or the closer
	argString                    // inside a key or a string value
	argNumber                    // inside a number
	argLiteral                   // inside true, false or null
	argDone                      // the top-level object closed
	argBroken                    // the text is not a JSON object
)

// Where a string's escape stands.
const (
	escNone      = iota
	escBackslash // a backslash was read
	escUnicode   // \u was read; esc counts its hex digits on from here
)

// unicodeDigits is the length of a \u escape's hex number.
const unicodeDigits = 4

// argFrame is an open object or array.
type argFrame struct {
	array   bool
	members map[string]any // an object's finished members
	key     string         // the key of the member being read
	items   []any          // an array's finished items
}

func newPartialArgs() *partialArgs {
	return &partialArgs{last: map[string]any{}}
}

// value returns the arguments parsed so far. The map and everything in it
// are never mutated afterwards.
func (p *partialArgs) value() map[string]any { return p.last }

// write reads the next piece of the argument JSON.
func (p *partialArgs) write(s string) {
	if p.carry != "" {
		s, p.carry = p.carry+s, ""
	}
	for i := 0; i < len(s) && p.state != argBroken; {
		i = p.step(s, i)
	}
	if p.state == argBroken {
		return
	}
	p.since += len(s)
	if cost := p.cost(); cost <= cheapSnapshot || p.since >= cost {
		p.last, p.since = p.snapshot(), 0
	}
}

// step reads s from i and returns where to go on.
func (p *partialArgs) step(s string, i int) int {
	c := s[i]
	switch p.state {
	case argString:
		return p.stringStep(s, i)
	case argNumber, argLiteral:
		if isTokenByte(p.state, c) {
			p.tok = append(p.tok, c)
			return i + 1
		}
		p.endToken()
		return i // c follows the token and is read again
	}
	if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
		return i + 1
	}
	switch p.state {
	case argFirstItem:
		if c == ']' {
			p.close()
			break
		}
		p.startValue(c)
	case argValue:
		p.startValue(c)
	case argFirstKey, argKey:
		switch {
		case c == '"':
			p.startString(true)
		case c == '}' && p.state == argFirstKey:
			p.close()
		default:
			p.state = argBroken
		}
	case argColon:
		p.expect(c == ':', argValue)
	case argAfter:
		top := p.stack[len(p.stack)-1]
		switch {
		case c == ',' && top.array:
			p.state = argValue
		case c == ',':
			p.state = argKey
		case (c == ']' && top.array) || (c == '}' && !top.array):
			p.close()
		default:
			p.state = argBroken
		}
	default: // argDone: only whitespace may follow
		p.state = argBroken
	}
	return i + 1
}

func (p *partialArgs) expect(ok bool, next argState) {
	if ok {
		p.state = next
	} else {
		p.state = argBroken
	}
}

// startValue begins the value whose first byte is c; only an object may
// stand at the top.
func (p *partialArgs) startValue(c byte) {
	if len(p.stack) == 0 && c != '{' {
		p.state = argBroken
		return
	}
	switch {
	case c == '{':
		p.stack = append(p.stack, &argFrame{members: map[string]any{}})
		p.state = argFirstKey
	case c == '[':
		p.stack = append(p.stack, &argFrame{array: true, items: []any{}})
		p.state = argFirstItem
	case c == '"':
		p.startString(false)
	case c == '-' || (c >= '0' && c <= '9'):
		p.tok, p.state = append(p.tok[:0], c), argNumber
	case c >= 'a' && c <= 'z':
		p.tok, p.state = append(p.tok[:0], c), argLiteral
	default:
		p.state = argBroken
	}
}

// complete adds a finished value to the open container.
func (p *partialArgs) complete(v any) {
	top := p.stack[len(p.stack)-1]
	if top.array {
		top.items = append(top.items, v)
	} else {
		top.members[top.key] = v
	}
	p.state = argAfter
}

// close ends the innermost container; its map or slice is final from here on.
func (p *partialArgs) close() {
	f := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	switch {
	case len(p.stack) == 0:
		p.root, p.state = f.members, argDone
	case f.array:
		p.complete(f.items)
	default:
		p.complete(f.members)
	}
}

func isTokenByte(state argState, c byte) bool {
	if state == argLiteral {
		return c >= 'a' && c <= 'z'
	}
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// endToken decodes a finished number or literal the way encoding/json does.
func (p *partialArgs) endToken() {
	var v any
	if json.Unmarshal(p.tok, &v) != nil {
		p.state = argBroken
		return
	}
	p.complete(v)
}

func (p *partialArgs) startString(isKey bool) {
	p.state, p.isKey = argString, isKey
	p.str.Reset()
}

// stringStep reads string content from s[i], decoding escapes and invalid
// UTF-8 as encoding/json does.
func (p *partialArgs) stringStep(s string, i int) int {
	c := s[i]
	if p.esc != escNone {
		p.escapeStep(c)
		return i + 1
	}
	if p.high != 0 && c != '\\' {
		p.str.WriteRune(utf8.RuneError) // a high surrogate without its low half
		p.high = 0
	}
	j := i
	for j < len(s) && s[j] >= 0x20 && s[j] < utf8.RuneSelf && s[j] != '"' && s[j] != '\\' {
		j++
	}
	if j > i {
		p.str.WriteString(s[i:j])
		return j
	}
	switch {
	case c == '"':
		v := p.str.String()
		p.str.Reset() // v keeps the bytes; the next string gets its own
		if p.isKey {
			p.stack[len(p.stack)-1].key, p.state = v, argColon
		} else {
			p.complete(v)
		}
	case c == '\\':
		p.esc = escBackslash
	case c < 0x20:
		p.state = argBroken
	default:
		if !utf8.FullRuneInString(s[i:]) {
			p.carry = s[i:] // finished by the next piece
			return len(s)
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			p.str.WriteRune(utf8.RuneError)
		} else {
			p.str.WriteString(s[i : i+n])
		}
		return i + n
	}
	return i + 1
}

// escapeStep reads the byte after a backslash or a hex digit of \u.
func (p *partialArgs) escapeStep(c byte) {
	if p.esc == escBackslash {
		if c == 'u' {
			p.esc, p.hex = escUnicode, 0
			return
		}
		p.esc = escNone
		if p.high != 0 {
			p.str.WriteRune(utf8.RuneError)
			p.high = 0
		}
		if r, ok := simpleEscapes[c]; ok {
			p.str.WriteByte(r)
		} else {
			p.state = argBroken
		}
		return
	}
	d, ok := hexValue(c)
	if !ok {
		p.state = argBroken
		return
	}
	p.hex = p.hex<<4 | d
	if p.esc++; p.esc < escUnicode+unicodeDigits {
		return
	}
	p.esc = escNone
	p.codeUnit(p.hex)
}

// simpleEscapes maps the byte after a backslash to what it stands for.
var simpleEscapes = map[byte]byte{
	'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t',
}

func hexValue(c byte) (rune, bool) {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0'), true
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10, true
	}
	return 0, false
}

// codeUnit writes the UTF-16 code unit of a \u escape, pairing surrogates
// as encoding/json does: a half that finds no partner becomes U+FFFD.
func (p *partialArgs) codeUnit(r rune) {
	if p.high != 0 {
		high := p.high
		p.high = 0
		if dec := utf16.DecodeRune(high, r); dec != unicode.ReplacementChar {
			p.str.WriteRune(dec)
			return
		}
		p.str.WriteRune(utf8.RuneError)
	}
	switch {
	case utf16.IsSurrogate(r) && r < lowSurrogates:
		p.high = r
	case utf16.IsSurrogate(r):
		p.str.WriteRune(utf8.RuneError)
	default:
		p.str.WriteRune(r)
	}
}

// lowSurrogates is where the low (second) halves of UTF-16 pairs begin.
const lowSurrogates = 0xdc00

// cost is how many values a snapshot copies.
func (p *partialArgs) cost() int {
	n := len(p.tok)
	for _, f := range p.stack {
		n += len(f.members) + len(f.items)
	}
	return n
}

// snapshot builds the value so far: fresh copies of the open containers,
// sharing every finished value.
func (p *partialArgs) snapshot() map[string]any {
	if p.state == argDone {
		return p.root
	}
	if len(p.stack) == 0 {
		return map[string]any{}
	}
	child, ok := p.leaf()
	for i := len(p.stack) - 1; i >= 0; i-- {
		f := p.stack[i]
		if f.array {
			items := make([]any, len(f.items), len(f.items)+1)
			copy(items, f.items)
			if ok {
				items = append(items, child)
			}
			child = items
		} else {
			m := make(map[string]any, len(f.members)+1)
			maps.Copy(m, f.members)
			if ok {
				m[f.key] = child
			}
			child = m
		}
		ok = true
	}
	return child.(map[string]any)
}

// leaf is the scalar being read, when it can show yet: a string value so
// far, or a number or literal that already parses.
func (p *partialArgs) leaf() (any, bool) {
	switch p.state {
	case argString:
		return p.str.String(), !p.isKey
	case argNumber, argLiteral:
		var v any
		if json.Unmarshal(p.tok, &v) == nil {
			return v, true
		}
	}
	return nil, false
}
