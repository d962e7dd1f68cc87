package jsonscan

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// tree builds the value encoding/json.Unmarshal gives for v.
func tree(t testing.TB, v Value) any {
	switch v.Kind() {
	case Null:
		return nil
	case Bool:
		return v.Raw()[0] == 't'
	case Number:
		f, err := strconv.ParseFloat(string(v.Raw()), 64)
		if err != nil {
			t.Fatalf("number %s: %v", v.Raw(), err)
		}
		return f
	case String:
		s, _ := v.Str()
		return s
	case Array:
		out := []any{}
		for e := range v.Elements() {
			out = append(out, tree(t, e))
		}
		return out
	case Object:
		out := map[string]any{}
		for k, e := range v.Members() {
			name, ok := k.Str()
			if !ok {
				t.Fatalf("key %s is not a string", k.Raw())
			}
			out[name] = tree(t, e)
		}
		return out
	}
	t.Fatalf("kind %d", v.Kind())
	return nil
}

// agrees checks Parse against encoding/json on doc: the same verdict, and
// for a valid document the same decoded value.
func agrees(t *testing.T, doc []byte) {
	t.Helper()
	v, err := new(Parser).Parse(doc)
	if valid := json.Valid(doc); valid != (err == nil) {
		t.Fatalf("Parse(%q) error %v, json.Valid %v", doc, err, valid)
	}
	if err != nil {
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(doc) {
			t.Fatalf("Parse(%q) error %#v", doc, err)
		}
		return
	}
	var want any
	if err := json.Unmarshal(doc, &want); err != nil {
		return // valid, but out of float64's range
	}
	if got := tree(t, v); !reflect.DeepEqual(got, want) {
		t.Fatalf("Parse(%q) = %#v, encoding/json %#v", doc, got, want)
	}
}

var corpus = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1.5e-3`, `-12E+4`, `""`, ` {"a" : [1, 2 ,{"b":null}] } `,
	`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":"tok "},"logprobs":null,"finish_reason":null}]}`,
	`"\u00e9\ud83d\ude00\n\t\"\\\/\b\f\r"`, `"\ud83d"`, `"\ude00\ud83d x"`, `"\ud83d\u0041"`, "\"\xff\xfe bad utf8\"",
	`{"a":1,"a":2}`, `{"\u0061":1}`, `[[[[[]]]]]`, `[1,]`, `{"a":1,}`, `{"a"}`, `{"a":}`, `{a:1}`, `01`, `1.`, `1e`,
	`-`, `tru`, `nul`, `"abc`, `"\x"`, `"\u12"`, "\"a\x01\"", `[1 2]`, `{"a":1 "b":2}`, ` `, ``, `{} {}`, `]`, `"\`,
	strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth),
	strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1),
}

func TestParseAgreesWithEncodingJSON(t *testing.T) {
	for _, doc := range corpus {
		agrees(t, []byte(doc))
	}
}

func FuzzParse(f *testing.F) {
	for _, doc := range corpus {
		f.Add([]byte(doc))
	}
	f.Fuzz(agrees)
}

func TestAccessors(t *testing.T) {
	doc := []byte(`{"s":"h\u00e9","q":"12","qf":"-2.5","n":42,"f":-3.9,"big":1e300,"huge":99999999999999999999,"t":true,"z":null,"o":{"k":[1,"x"]}}`)
	v, err := new(Parser).Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	member := func(name string) Value {
		m, ok := v.Member(name)
		if !ok {
			t.Fatalf("no member %q", name)
		}
		return m
	}
	ints := []struct {
		name string
		want int64
		ok   bool
	}{
		{"n", 42, true}, {"f", -3, true}, {"q", 12, true}, {"qf", -2, true}, {"t", 0, false}, {"big", 0, false}, {"huge", 0, false}, {"s", 0, false}, {"z", 0, false},
	}
	for _, tt := range ints {
		if n, ok := member(tt.name).Int(); n != tt.want || ok != tt.ok {
			t.Errorf("%s.Int() = %d, %v; want %d, %v", tt.name, n, ok, tt.want, tt.ok)
		}
	}
	if s, ok := member("s").Str(); s != "hé" || !ok {
		t.Errorf(`s.Str() = %q, %v`, s, ok)
	}
	if _, ok := member("n").Str(); ok {
		t.Error("a number read as a string")
	}
	if _, ok := v.Member("missing"); ok {
		t.Error("found a missing member")
	}
	var missing Value
	if missing.Kind() != None || len(missing.Raw()) != 0 {
		t.Errorf("the zero Value is %d %q", missing.Kind(), missing.Raw())
	}
	if _, ok := missing.Str(); ok {
		t.Error("the zero Value read as a string")
	}
	for range missing.Members() {
		t.Error("the zero Value has members")
	}
	var elems []string
	for e := range member("o").Elements() {
		t.Errorf("an object has element %s", e.Raw())
	}
	k, _ := member("o").Member("k")
	for e := range k.Elements() {
		elems = append(elems, string(e.Raw()))
	}
	if strings.Join(elems, " ") != `1 "x"` {
		t.Errorf("elements = %q", elems)
	}
}

func TestIs(t *testing.T) {
	tests := []struct {
		raw, s string
		want   bool
	}{
		{`"content"`, "content", true},
		{`"\u0063ontent"`, "content", true},
		{`"content "`, "content", false},
		{`"conten"`, "content", false},
		{"\"\xff\"", "\uFFFD", true},
		{`7`, "7", false},
	}
	for _, tt := range tests {
		v, err := new(Parser).Parse([]byte(tt.raw))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Is(tt.s); got != tt.want {
			t.Errorf("%s.Is(%q) = %v", tt.raw, tt.s, got)
		}
	}
}

func TestIntern(t *testing.T) {
	names := []string{"text_delta", "thinking_delta"}
	tests := []struct {
		raw, want string
		ok        bool
	}{
		{`"text_delta"`, "text_delta", true},
		{`"\u0074hinking_delta"`, "thinking_delta", true},
		{`"other"`, "other", true},
		{`3`, "", false},
	}
	var p Parser
	for _, tt := range tests {
		v, err := p.Parse([]byte(tt.raw))
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := v.Intern(names); got != tt.want || ok != tt.ok {
			t.Errorf("%s.Intern() = %q, %v", tt.raw, got, ok)
		}
	}
	v, _ := p.Parse([]byte(`"thinking_delta"`))
	if allocs := testing.AllocsPerRun(100, func() { v.Intern(names) }); allocs != 0 {
		t.Errorf("%v allocations for a known name", allocs)
	}
}

// TestWalkingAllocatesNothing: reading a chunk's fields costs no allocation
// but the string kept.
func TestWalkingAllocatesNothing(t *testing.T) {
	doc := []byte(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"tok "},"logprobs":null,"finish_reason":null}]}`)
	var (
		p       Parser
		content string
	)
	allocs := testing.AllocsPerRun(100, func() {
		v, err := p.Parse(doc)
		if err != nil {
			t.Fatal(err)
		}
		choices, _ := v.Member("choices")
		for c := range choices.Elements() {
			for k, val := range c.Members() {
				if k.Is("delta") {
					d, _ := val.Member("content")
					content, _ = d.Str()
				}
			}
		}
	})
	if content != "tok " || allocs != 1 {
		t.Errorf("content %q with %v allocations, want 1", content, allocs)
	}
}

// BenchmarkChunk reads a streamed text chunk's content: Parse and a walk
// against encoding/json into a struct of the same fields.
func BenchmarkChunk(b *testing.B) {
	doc := []byte(`{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1782321900,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"tok "},"logprobs":null,"finish_reason":null}]}`)
	b.Run("jsonscan", func(b *testing.B) {
		var p Parser
		b.ReportAllocs()
		for b.Loop() {
			v, err := p.Parse(doc)
			if err != nil {
				b.Fatal(err)
			}
			choices, _ := v.Member("choices")
			for c := range choices.Elements() {
				d, _ := c.Member("delta")
				s, _ := d.Member("content")
				if str, _ := s.Str(); str != "tok " {
					b.Fatal(str)
				}
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var c struct {
				Choices []struct {
					Delta struct {
						Content string `json:"content"`
					} `json:"delta"`
				} `json:"choices"`
			}
			if err := json.Unmarshal(doc, &c); err != nil || c.Choices[0].Delta.Content != "tok " {
				b.Fatal(err)
			}
		}
	})
}
