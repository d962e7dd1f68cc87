package jsonscan

import (
	"fmt"
	"unicode/utf8"
)

// maxDepth is encoding/json's limit on nested objects and arrays.
const maxDepth = 10000

// SyntaxError says where a document stops being JSON, in encoding/json's
// words.
type SyntaxError struct {
	Offset int // the byte at which the document went wrong
	msg    string
}

func (e *SyntaxError) Error() string { return e.msg }

// checker validates one document by recursive descent, recording each value
// on the tape; each method takes the offset a part starts at and returns the
// offset just past it.
type checker struct {
	doc   []byte
	tape  []span
	plain bool // of the string str checked last
}

func (c *checker) fail(i int, context string) error {
	if i >= len(c.doc) {
		return &SyntaxError{Offset: i, msg: "unexpected end of JSON input"}
	}
	return &SyntaxError{Offset: i, msg: fmt.Sprintf("invalid character %q %s", rune(c.doc[i]), context)}
}

func (c *checker) space(i int) int {
	for i < len(c.doc) && isSpace(c.doc[i]) {
		i++
	}
	return i
}

func (c *checker) at(i int, b byte) bool { return i < len(c.doc) && c.doc[i] == b }

// value checks the value at i and records it, and the values inside it, on
// the tape.
func (c *checker) value(i, depth int) (int, error) {
	t := len(c.tape)
	c.tape = append(c.tape, span{start: int32(i)})
	end, err := c.kind(i, depth)
	s := &c.tape[t]
	s.end, s.next = int32(end), int32(len(c.tape))
	s.plain = err == nil && c.doc[i] == '"' && c.plain
	return end, err
}

// key is value for an object's key, which is a string: the dispatch
// skipped, as keys are half the values of a chunk.
func (c *checker) key(i int) (int, error) {
	t := len(c.tape)
	c.tape = append(c.tape, span{start: int32(i)})
	end, err := c.str(i)
	c.tape[t] = span{start: int32(i), end: int32(end), next: int32(t + 1), plain: err == nil && c.plain}
	return end, err
}

func (c *checker) kind(i, depth int) (int, error) {
	if i >= len(c.doc) {
		return i, c.fail(i, "")
	}
	switch b := c.doc[i]; {
	case b == '{':
		return c.object(i, depth+1)
	case b == '[':
		return c.array(i, depth+1)
	case b == '"':
		return c.str(i)
	case b == '-' || isDigit(b):
		return c.number(i)
	case b == 't':
		return c.literal(i, "true")
	case b == 'f':
		return c.literal(i, "false")
	case b == 'n':
		return c.literal(i, "null")
	}
	return i, c.fail(i, "looking for beginning of value")
}

func (c *checker) object(i, depth int) (int, error) {
	if depth > maxDepth {
		return i, &SyntaxError{Offset: i, msg: "exceeded max depth"}
	}
	i = c.space(i + 1)
	if c.at(i, '}') {
		return i + 1, nil
	}
	var err error
	for {
		if !c.at(i, '"') {
			return i, c.fail(i, "looking for beginning of object key string")
		}
		if i, err = c.key(i); err != nil {
			return i, err
		}
		if i = c.space(i); !c.at(i, ':') {
			return i, c.fail(i, "after object key")
		}
		if i, err = c.value(c.space(i+1), depth); err != nil {
			return i, err
		}
		switch i = c.space(i); {
		case c.at(i, ','):
			i = c.space(i + 1)
		case c.at(i, '}'):
			return i + 1, nil
		default:
			return i, c.fail(i, "after object key:value pair")
		}
	}
}

func (c *checker) array(i, depth int) (int, error) {
	if depth > maxDepth {
		return i, &SyntaxError{Offset: i, msg: "exceeded max depth"}
	}
	i = c.space(i + 1)
	if c.at(i, ']') {
		return i + 1, nil
	}
	var err error
	for {
		if i, err = c.value(i, depth); err != nil {
			return i, err
		}
		switch i = c.space(i); {
		case c.at(i, ','):
			i = c.space(i + 1)
		case c.at(i, ']'):
			return i + 1, nil
		default:
			return i, c.fail(i, "after array element")
		}
	}
}

// str checks the string at i and sets c.plain to whether it is ASCII without
// escapes, so that its bytes are its value.
func (c *checker) str(i int) (int, error) {
	doc := c.doc
	plain := true
	for i++; i < len(doc); i++ {
		for i < len(doc) && asciiByte[doc[i]] {
			i++
		}
		if i == len(doc) {
			break
		}
		switch b := doc[i]; {
		case b == '"':
			c.plain = plain
			return i + 1, nil
		case b < 0x20:
			return i, c.fail(i, "in string literal")
		case b >= utf8.RuneSelf:
			plain = false
		case b == '\\':
			plain = false
			i++
			if i >= len(doc) {
				return i, c.fail(i, "")
			}
			switch doc[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for k := 1; k <= 4; k++ {
					if i+k >= len(doc) || !isHex(doc[i+k]) {
						return i + k, c.fail(i+k, "in \\u hexadecimal character escape")
					}
				}
				i += 4
			default:
				return i, c.fail(i, "in string escape code")
			}
		}
	}
	return i, c.fail(i, "")
}

func (c *checker) number(i int) (int, error) {
	doc := c.doc
	if doc[i] == '-' {
		i++
	}
	switch {
	case c.at(i, '0'):
		i++
	case i < len(doc) && isDigit(doc[i]):
		i = digits(doc, i)
	default:
		return i, c.fail(i, "in numeric literal")
	}
	if c.at(i, '.') {
		if i++; i >= len(doc) || !isDigit(doc[i]) {
			return i, c.fail(i, "after decimal point in numeric literal")
		}
		i = digits(doc, i)
	}
	if c.at(i, 'e') || c.at(i, 'E') {
		if i++; c.at(i, '+') || c.at(i, '-') {
			i++
		}
		if i >= len(doc) || !isDigit(doc[i]) {
			return i, c.fail(i, "in exponent of numeric literal")
		}
		i = digits(doc, i)
	}
	return i, nil
}

func (c *checker) literal(i int, lit string) (int, error) {
	for k := range len(lit) {
		if !c.at(i+k, lit[k]) {
			return i + k, c.fail(i+k, "in literal "+lit)
		}
	}
	return i + len(lit), nil
}

// asciiByte marks the bytes that stand for themselves inside a string and
// are ASCII: all but the quote, the backslash, control characters and the
// bytes of multi-byte UTF-8.
var asciiByte = func() (t [256]bool) {
	for b := range t {
		t[b] = b >= 0x20 && b < utf8.RuneSelf && b != '"' && b != '\\'
	}
	return t
}()

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

func isHex(b byte) bool { return isDigit(b) || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F' }

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func digits(doc []byte, i int) int {
	for i < len(doc) && isDigit(doc[i]) {
		i++
	}
	return i
}
