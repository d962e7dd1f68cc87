// Package jsonscan reads fields out of a JSON document in place: a Parser
// checks the whole document once, recording where each value starts and
// ends, and a Value then walks objects and arrays without scanning bytes
// again or building a tree, so that reading a few fields of a streamed chunk
// allocates nothing but the strings kept. It accepts exactly the documents
// encoding/json accepts and decodes strings as it does.
package jsonscan

import (
	"iter"
	"math"
	"strconv"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The kinds of JSON values; None is the zero Value's, which stands for a
// value that is not there (a missing member).
const (
	None Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

// Parser parses documents one after the other, reusing its memory: the
// Values of one document are valid until the next Parse. It is used by one
// goroutine.
type Parser struct {
	doc  []byte
	tape []span
}

// maxKeptTape bounds the tape a Parser keeps for the next document (16 bytes
// a value).
const maxKeptTape = 1 << 16

// span is one value on the tape, which lists the document's values in order
// (an object's keys among them): where it starts and ends, and the tape index
// past its contents, where its next sibling is.
type span struct {
	start, end, next int32
	plain            bool // a string whose bytes are its value: ASCII, no escapes
}

// Parse checks that doc is one JSON value (RFC 8259, as encoding/json.Valid
// checks it) and returns it. The Value shares doc's bytes.
func (p *Parser) Parse(doc []byte) (Value, error) {
	if int64(len(doc)) > 1<<31-1 {
		return Value{}, &SyntaxError{msg: "document larger than 2 GiB"}
	}
	if cap(p.tape) > maxKeptTape { // let one huge document's tape go
		p.tape = nil
	}
	c := checker{doc: doc, tape: p.tape[:0]}
	start := c.space(0)
	end, err := c.value(start, 0)
	p.doc, p.tape = doc, c.tape
	if err != nil {
		return Value{}, err
	}
	if rest := c.space(end); rest != len(doc) {
		return Value{}, c.fail(rest, "after top-level value")
	}
	return Value{p: p}, nil
}

// Value is one value of a parsed document.
type Value struct {
	p *Parser // nil for the zero Value
	t int32   // its index on the tape
}

func (v Value) span() span { return v.p.tape[v.t] }

// Raw is the value as it appears in the document; nil for the zero Value.
func (v Value) Raw() []byte {
	if v.p == nil {
		return nil
	}
	s := v.span()
	return v.p.doc[s.start:s.end]
}

// Kind is the value's JSON type.
func (v Value) Kind() Kind {
	if v.p == nil {
		return None
	}
	switch v.p.doc[v.span().start] {
	case 'n':
		return Null
	case 't', 'f':
		return Bool
	case '"':
		return String
	case '[':
		return Array
	case '{':
		return Object
	}
	return Number
}

// Str is the value of a JSON string, decoded as encoding/json decodes it
// (invalid UTF-8 and lone surrogates become U+FFFD); ok is false for any
// other kind.
func (v Value) Str() (s string, ok bool) {
	if v.Kind() != String {
		return "", false
	}
	if inner, plain := v.inner(); plain {
		return string(inner), true
	}
	return unquote(v.Raw()), true
}

// inner is a string's bytes between its quotes, and whether they are its
// value.
func (v Value) inner() ([]byte, bool) {
	s := v.span()
	return v.p.doc[s.start+1 : s.end-1], s.plain
}

// Is reports whether v is the JSON string s.
func (v Value) Is(s string) bool {
	if v.Kind() != String {
		return false
	}
	if inner, plain := v.inner(); plain {
		return string(inner) == s
	}
	return unquote(v.Raw()) == s
}

// Intern is Str for a string that is one of names: it returns that name,
// sharing its memory, so that reading a known name allocates nothing.
func (v Value) Intern(names []string) (s string, ok bool) {
	if v.Kind() != String {
		return "", false
	}
	if inner, plain := v.inner(); plain {
		for _, name := range names {
			if string(inner) == name {
				return name, true
			}
		}
	}
	return v.Str()
}

// Int is the value of a JSON number, or of a string that holds one (both
// SDKs read numbers so), as an int64: a fraction is truncated, and ok is
// false for anything else and for a number out of range.
func (v Value) Int() (n int64, ok bool) {
	var text string
	switch v.Kind() {
	case Number:
		text = string(v.Raw())
	case String:
		text, _ = v.Str()
	default:
		return 0, false
	}
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(f) || f < -(1<<63) || f >= 1<<63 {
		return 0, false
	}
	return int64(f), true
}

// Members yields an object's members in document order, keys as JSON
// strings (compare them with Is); nothing for any other kind.
func (v Value) Members() iter.Seq2[Value, Value] {
	return func(yield func(Value, Value) bool) {
		if v.Kind() != Object {
			return
		}
		end := v.span().next
		for key := v.t + 1; key < end; {
			val := key + 1
			if !yield(Value{v.p, key}, Value{v.p, val}) {
				return
			}
			key = v.p.tape[val].next
		}
	}
}

// Member is the value of the object's first member named name. Chunk
// decoders look up most members of every chunk, so this compares keys in
// place rather than through Is.
func (v Value) Member(name string) (Value, bool) {
	if v.Kind() != Object {
		return Value{}, false
	}
	doc, tape := v.p.doc, v.p.tape
	for key, end := v.t+1, tape[v.t].next; key < end; key = tape[key+1].next {
		k := tape[key]
		switch {
		case k.plain:
			if int(k.end-k.start)-2 == len(name) && string(doc[k.start+1:k.end-1]) == name {
				return Value{v.p, key + 1}, true
			}
		case unquote(doc[k.start:k.end]) == name:
			return Value{v.p, key + 1}, true
		}
	}
	return Value{}, false
}

// Elements yields an array's elements in order; nothing for any other kind.
func (v Value) Elements() iter.Seq[Value] {
	return func(yield func(Value) bool) {
		if v.Kind() != Array {
			return
		}
		end := v.span().next
		for e := v.t + 1; e < end; e = v.p.tape[e].next {
			if !yield(Value{v.p, e}) {
				return
			}
		}
	}
}
