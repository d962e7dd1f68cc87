package agent

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"unicode/utf8"
)

// argDocs are argument JSON documents that exercise every kind of value.
var argDocs = []string{
	`{"command": "ls -la /tmp && echo \"done\"", "timeout": 30}`,
	"{\"path\": \"a.go\", \"content\": \"package main\\n\\nfunc main() {\\n\\tprintln(\\\"héllo 世界 🙂\\\")\\n}\\n\"}",
	`{"edits": [{"oldText": "a\\b", "newText": "c\/d"}, {"oldText": "", "newText": "\u00e9\ud83d\ude00"}], "dry": false, "n": null, "x": -1.5e3}`,
	`{"a": {}, "b": [], "c": [[], {}], "d": [1, [2, [3]]], "e": [true, false, null, 0, 12.5]}`,
	`{"a": "x", "a": {"b": 1}, "a": [true], "b": {"x": 1}, "b": {"y": "z"}}`,
	`{"s": "\ud83d x \ude00 \ud83d\u0041 \ud83d\ud83d\ude00 \ud83d"}`,
	"{\n  \"a\" : [ 1 , 2 ] ,\n  \"b\" : \"y\" ,\r\n\t\"\u00e9\\u00e9\": {\"k\\\"\": \"\"}\n}\n",
	"{\"bad\": \"a\xffb\xe4\"}",
	`{}`,
	` {"k":""}`,
}

// cutInside reports whether doc[:n] ends inside a number, a literal, an
// escape or a UTF-8 sequence, or just after a high surrogate's \u escape:
// there partialArgs deliberately shows less than ParsePartialJSON.
func cutInside(doc string, n int) bool {
	inString := false
	for i := 0; i < n; {
		c := doc[i]
		switch {
		case inString && c == '\\':
			size := 2
			if doc[i+1] == 'u' {
				size = 6
				if i+size == n && doc[i+2]|0x20 == 'd' && doc[i+3] >= '8' && doc[i+3] <= 'b' {
					return true // a high surrogate may still find its low half
				}
			}
			if i+size > n {
				return true
			}
			i += size
		case inString && c >= utf8.RuneSelf:
			if !utf8.FullRuneInString(doc[i:n]) {
				return true
			}
			_, size := utf8.DecodeRuneInString(doc[i:])
			i += size
		case inString:
			inString = c != '"'
			i++
		case c == '"':
			inString = true
			i++
		case c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'):
			j := i
			for j < len(doc) && isTokenByte(argNumber, doc[j]) || (j < len(doc) && doc[j] >= 'a' && doc[j] <= 'z') {
				j++
			}
			if n < j {
				return true
			}
			i = j
		default:
			i++
		}
	}
	return false
}

// checkPrefixes feeds doc in the given pieces and compares the value after
// each piece with ParsePartialJSON of the text so far, and the end with
// encoding/json.
func checkPrefixes(t *testing.T, doc string, pieces []int) {
	t.Helper()
	p := newPartialArgs()
	n := 0
	for _, size := range pieces {
		p.write(doc[n : n+size])
		n += size
		if cutInside(doc, n) {
			continue
		}
		if got, want := p.value(), ParsePartialJSON(doc[:n]); !reflect.DeepEqual(got, want) {
			t.Fatalf("after %q:\n got %#v\nwant %#v", doc[:n], got, want)
		}
	}
	var want map[string]any
	if json.Unmarshal([]byte(doc), &want) == nil && !reflect.DeepEqual(p.value(), want) {
		t.Fatalf("whole %q:\n got %#v\nwant %#v", doc, p.value(), want)
	}
}

func TestPartialArgsMatchesParsePartialJSON(t *testing.T) {
	for i, doc := range argDocs {
		t.Run(fmt.Sprintf("doc%d/bytewise", i), func(t *testing.T) {
			pieces := make([]int, len(doc))
			for j := range pieces {
				pieces[j] = 1
			}
			checkPrefixes(t, doc, pieces)
		})
		t.Run(fmt.Sprintf("doc%d/pieces", i), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			var pieces []int
			for left := len(doc); left > 0; {
				n := min(1+rng.IntN(8), left)
				pieces = append(pieces, n)
				left -= n
			}
			checkPrefixes(t, doc, pieces)
		})
	}
}

// TestPartialArgsShowsLess covers where partialArgs differs from
// ParsePartialJSON on purpose, to avoid flicker while a value streams.
func TestPartialArgsShowsLess(t *testing.T) {
	tests := []struct {
		name, raw string
		want      map[string]any
	}{
		{"cut \\u escape keeps the string", `{"a": "x\u00`, map[string]any{"a": "x"}},
		{"lone high surrogate waits", `{"a": "x\ud83d`, map[string]any{"a": "x"}},
		{"cut UTF-8 sequence waits", "{\"a\": \"x\xe4\xb8", map[string]any{"a": "x"}},
		{"half literal as first item", `{"a": [tr`, map[string]any{"a": []any{}}},
		{"half number as first item", `{"a": [-`, map[string]any{"a": []any{}}},
		{"whole number shows", `{"a": [12`, map[string]any{"a": []any{float64(12)}}},
		{"half literal is left out", `{"a": nul`, map[string]any{}},
		{"whole literal shows", `{"a": true`, map[string]any{"a": true}},
		{"not an object", `["a"]`, map[string]any{}},
		{"broken text keeps the last value", `{"a": "x", "b" 1}`, map[string]any{"a": "x"}},
		{"control character in a string", "{\"a\": \"x\ny\"", map[string]any{"a": "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPartialArgs()
			for i := range len(tt.raw) {
				p.write(tt.raw[i : i+1])
			}
			if got := p.value(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%q: got %#v, want %#v", tt.raw, got, tt.want)
			}
		})
	}
}

// TestPartialArgsSnapshotsAreImmutable holds on to every value and checks
// none changed once later pieces arrived.
func TestPartialArgsSnapshotsAreImmutable(t *testing.T) {
	doc := argDocs[2]
	p := newPartialArgs()
	var seen []map[string]any
	var copies []string
	for i := range len(doc) {
		p.write(doc[i : i+1])
		v := p.value()
		b, _ := json.Marshal(v)
		seen, copies = append(seen, v), append(copies, string(b))
	}
	for i, v := range seen {
		if b, _ := json.Marshal(v); string(b) != copies[i] {
			t.Fatalf("value after %d bytes changed from %s to %s", i+1, copies[i], b)
		}
	}
}

// TestPartialArgsLongOpenArray checks a snapshot that would copy many items
// is rebuilt only as often as its cost allows, and the end is exact.
func TestPartialArgsLongOpenArray(t *testing.T) {
	const items = 10 * cheapSnapshot
	doc := `{"n": [`
	for i := range items {
		doc += fmt.Sprintf("%d, ", i)
	}
	doc = doc[:len(doc)-2] + "]}"
	p := newPartialArgs()
	rebuilds := 0
	for i := range len(doc) {
		before := p.value()
		p.write(doc[i : i+1])
		if reflect.ValueOf(p.value()).Pointer() != reflect.ValueOf(before).Pointer() {
			rebuilds++
		}
	}
	if rebuilds > len(doc)/2 {
		t.Errorf("%d snapshots for %d bytes of a long array", rebuilds, len(doc))
	}
	if got := len(p.value()["n"].([]any)); got != items {
		t.Errorf("got %d items, want %d", got, items)
	}
}

func FuzzPartialArgs(f *testing.F) {
	for _, doc := range argDocs {
		f.Add(doc, uint8(3))
	}
	f.Fuzz(func(t *testing.T, doc string, seed uint8) {
		rng := rand.New(rand.NewPCG(uint64(seed), 1))
		var pieces []int
		for left := len(doc); left > 0; {
			n := min(1+rng.IntN(8), left)
			pieces = append(pieces, n)
			left -= n
		}
		var whole map[string]any
		if json.Unmarshal([]byte(doc), &whole) != nil || whole == nil {
			// Not an object: only check that nothing breaks.
			p := newPartialArgs()
			n := 0
			for _, size := range pieces {
				p.write(doc[n : n+size])
				n += size
				if p.value() == nil {
					t.Fatal("nil value")
				}
			}
			return
		}
		checkPrefixes(t, doc, pieces)
	})
}
