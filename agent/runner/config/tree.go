package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
)

// kind is the JSON type of a node.
type kind int

const (
	kindNull kind = iota
	kindObject
	kindArray
	kindString
	kindNumber
	kindBool
)

func (k kind) String() string {
	return [...]string{"null", "an object", "an array", "a string", "a number", "a boolean"}[k]
}

// node is one parsed JSON value with the line it starts on, so that every
// later error can point at the file.
type node struct {
	kind kind
	// file is the file the value was read from: after layers merge
	// (layers.go), each value still names its own.
	file  string
	line  int
	str   string      // kindString
	num   json.Number // kindNumber
	b     bool        // kindBool
	elems []*node     // kindArray
	keys  []field     // kindObject, in file order
}

// field is one member of an object.
type field struct {
	name string
	line int
	val  *node
}

// get returns the member named name, or nil.
func (n *node) get(name string) *node {
	if n == nil {
		return nil
	}
	for _, f := range n.keys {
		if f.name == name {
			return f.val
		}
	}
	return nil
}

// parser turns a file into a node tree with line numbers.
type parser struct {
	file  string
	data  []byte
	nl    []int // offsets of the newlines in data
	dec   *json.Decoder
	depth int
}

func parse(file string, data []byte) (*node, error) {
	p := &parser{file: file, data: data}
	for i, c := range data {
		if c == '\n' {
			p.nl = append(p.nl, i)
		}
	}
	p.dec = json.NewDecoder(bytes.NewReader(data))
	p.dec.UseNumber()
	root, err := p.value()
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, &Error{File: file, Line: p.lineAt(p.dec.InputOffset()), Msg: "invalid JSON: unexpected data after the top-level value"}
	}
	if root.kind != kindObject {
		return nil, &Error{File: file, Line: root.line, Msg: "want a JSON object at the top level, got " + root.kind.String()}
	}
	return root, nil
}

// lineAt is the 1-based line of the byte just before offset (the end of the
// token the decoder has just read).
func (p *parser) lineAt(offset int64) int {
	off := int(offset) - 1
	if off < 0 {
		off = 0
	}
	return sort.SearchInts(p.nl, off) + 1
}

func (p *parser) token() (json.Token, int, error) {
	tok, err := p.dec.Token()
	if err != nil {
		var syn *json.SyntaxError
		switch {
		case errors.As(err, &syn):
			return nil, 0, &Error{File: p.file, Line: p.lineAt(syn.Offset + 1), Msg: "invalid JSON: " + syn.Error()}
		case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
			return nil, 0, &Error{File: p.file, Line: len(p.nl) + 1, Msg: "invalid JSON: unexpected end of file"}
		default:
			return nil, 0, &Error{File: p.file, Line: p.lineAt(p.dec.InputOffset()), Msg: "invalid JSON: " + err.Error()}
		}
	}
	return tok, p.lineAt(p.dec.InputOffset()), nil
}

const maxDepth = 64

func (p *parser) value() (*node, error) {
	tok, line, err := p.token()
	if err != nil {
		return nil, err
	}
	return p.valueFrom(tok, line)
}

func (p *parser) valueFrom(tok json.Token, line int) (*node, error) {
	n := &node{file: p.file, line: line}
	switch t := tok.(type) {
	case nil:
		n.kind = kindNull
	case bool:
		n.kind, n.b = kindBool, t
	case string:
		n.kind, n.str = kindString, t
	case json.Number:
		n.kind, n.num = kindNumber, t
	case json.Delim:
		if p.depth++; p.depth > maxDepth {
			return nil, &Error{File: p.file, Line: line, Msg: "invalid JSON: nested too deeply"}
		}
		defer func() { p.depth-- }()
		if t == '{' {
			return n, p.object(n)
		}
		return n, p.array(n)
	default:
		return nil, &Error{File: p.file, Line: line, Msg: fmt.Sprintf("invalid JSON: unexpected token %v", tok)}
	}
	return n, nil
}

func (p *parser) object(n *node) error {
	n.kind = kindObject
	for {
		tok, line, err := p.token()
		if err != nil {
			return err
		}
		if tok == json.Delim('}') {
			return nil
		}
		name := tok.(string) // the decoder guarantees a string key here
		val, err := p.value()
		if err != nil {
			return err
		}
		n.keys = append(n.keys, field{name: name, line: line, val: val})
	}
}

func (p *parser) array(n *node) error {
	n.kind = kindArray
	for {
		tok, line, err := p.token()
		if err != nil {
			return err
		}
		if tok == json.Delim(']') {
			return nil
		}
		val, err := p.valueFrom(tok, line)
		if err != nil {
			return err
		}
		n.elems = append(n.elems, val)
	}
}

// value is the node as encoding/json would decode it into an any, for the
// keys whose value is the user's JSON, passed on as it is
// (lsp.*.initializationOptions).
func (n *node) value() any {
	switch n.kind {
	case kindObject:
		m := make(map[string]any, len(n.keys))
		for _, f := range n.keys {
			m[f.name] = f.val.value()
		}
		return m
	case kindArray:
		a := make([]any, len(n.elems))
		for i, e := range n.elems {
			a[i] = e.value()
		}
		return a
	case kindString:
		return n.str
	case kindNumber:
		return n.num
	case kindBool:
		return n.b
	}
	return nil
}
