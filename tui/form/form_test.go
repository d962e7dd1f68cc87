package form

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/steer-tui/steer/tui/theme"
)

// contact is the schema of a server asking who to contact, in the shape
// of the MCP specification's examples.
const contact = `{"type":"object","properties":{
	"name":{"type":"string","title":"Your name","description":"as it should appear","minLength":2},
	"age":{"type":"integer","minimum":0,"maximum":150},
	"ratio":{"type":"number","default":0.5},
	"subscribe":{"type":"boolean","title":"Subscribe","default":true},
	"plan":{"type":"string","enum":["free","pro"],"enumNames":["Free","Pro"],"default":"pro"},
	"size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l","title":"Large"}]}
},"required":["name","plan"]}`

// schema is s as a server's raw JSON, its properties in their order.
func schema(t *testing.T, s string) any {
	t.Helper()
	if !json.Valid([]byte(s)) {
		t.Fatalf("not JSON: %s", s)
	}
	return json.RawMessage(s)
}

func TestFromSchema(t *testing.T) {
	fields, err := FromSchema(schema(t, contact))
	if err != nil {
		t.Fatal(err)
	}
	type brief struct {
		Name, Label string
		Kind        Kind
		Required    bool
		Default     any
		Options     int
	}
	want := []brief{
		{"name", "Your name", String, true, nil, 0},
		{"age", "age", Integer, false, nil, 0},
		{"ratio", "ratio", Number, false, 0.5, 0},
		{"subscribe", "Subscribe", Boolean, false, true, 2},
		{"plan", "plan", Choice, true, "pro", 2},
		{"size", "size", Choice, false, nil, 2},
	}
	if len(fields) != len(want) {
		t.Fatalf("%d fields, want %d", len(fields), len(want))
	}
	for i, f := range fields {
		got := brief{f.Name, f.Label, f.Kind, f.Required, f.Default, len(f.Options)}
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("field %d = %+v, want %+v", i, got, want[i])
		}
	}
	if fields[4].Options[1] != (Option{Value: "pro", Label: "Pro"}) || fields[5].Options[0] != (Option{Value: "s", Label: "Small"}) {
		t.Errorf("options %+v, %+v", fields[4].Options, fields[5].Options)
	}
	if fields[0].Help != "as it should appear" || *fields[0].MinLength != 2 || *fields[1].Maximum != 150 {
		t.Errorf("name %+v, age %+v", fields[0], fields[1])
	}

	// A schema decoded into a map has lost its order: by name then.
	var decoded any
	_ = json.Unmarshal([]byte(contact), &decoded)
	if fields, _ := FromSchema(decoded); len(fields) != 6 || fields[0].Name != "age" || fields[5].Name != "subscribe" {
		t.Errorf("fields of a decoded schema: %+v", fields)
	}

	refused := []struct{ name, schema, err string }{
		{"not an object", `{"type":"array"}`, `of type "array"`},
		{"nested object", `{"type":"object","properties":{"a":{"type":"object"}}}`, `property "a"`},
		{"properties not an object", `{"type":"object","properties":[1]}`, "not an object"},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			if _, err := FromSchema(schema(t, c.schema)); err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("err = %v, want it to say %q", err, c.err)
			}
		})
	}
}

func typeText(m Model, s string) Model {
	for _, r := range s {
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return m
}

var (
	tab   = tea.KeyMsg{Type: tea.KeyTab}
	right = tea.KeyMsg{Type: tea.KeyRight}
	space = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
)

func press(m Model, keys ...tea.KeyMsg) Model {
	for _, k := range keys {
		m, _ = m.Update(k)
	}
	return m
}

func newForm(t *testing.T, s string) Model {
	t.Helper()
	fields, err := FromSchema(schema(t, s))
	if err != nil {
		t.Fatal(err)
	}
	return New(theme.NewStyles(theme.Plain()).Dialog, DefaultKeyMap(), fields)
}

// TestSubmitTypes: the answer carries the schema's types, defaults count
// as answers, optional fields left empty are left out, and what a field
// refuses is said under it.
func TestSubmitTypes(t *testing.T) {
	cases := []struct {
		name  string
		fill  func(Model) Model
		want  map[string]any // nil: refused
		error string
	}{
		{"defaults and a name", func(m Model) Model { return typeText(m, "Ada") },
			map[string]any{"name": "Ada", "ratio": 0.5, "subscribe": true, "plan": "pro"}, ""},
		{"every type", func(m Model) Model {
			m = typeText(m, "Ada")
			m = typeText(press(m, tab), "36")
			m = press(m, tab, tab, space, tab, right, tab, right)
			return m
		}, map[string]any{"name": "Ada", "age": int64(36), "ratio": 0.5, "subscribe": false, "plan": "free", "size": "s"}, ""},
		{"required name missing", func(m Model) Model { return m }, nil, "✗ required"},
		{"too short", func(m Model) Model { return typeText(m, "A") }, nil, "✗ at least 2 characters"},
		{"not a whole number", func(m Model) Model { return typeText(press(typeText(m, "Ada"), tab), "3.5") }, nil, "✗ a whole number"},
		{"over the maximum", func(m Model) Model { return typeText(press(typeText(m, "Ada"), tab), "200") }, nil, "✗ at most 150"},
		{"not a number", func(m Model) Model { return typeText(press(typeText(m, "Ada"), tab, tab), "x") }, nil, "✗ a number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := c.fill(newForm(t, contact))
			content, after, ok := m.Submit()
			if c.want == nil {
				if ok {
					t.Fatalf("accepted %v", content)
				}
				if view := strings.Join(after.Lines(0), "\n"); !strings.Contains(view, c.error) {
					t.Fatalf("the form does not say %q:\n%s", c.error, view)
				}
				return
			}
			if !ok || !reflect.DeepEqual(content, c.want) {
				t.Fatalf("content = %#v (ok %v), want %#v", content, ok, c.want)
			}
			raw, _ := json.Marshal(content)
			var back map[string]any
			_ = json.Unmarshal(raw, &back)
			if _, isNum := back["ratio"].(float64); !isNum {
				t.Errorf("ratio is not a JSON number: %s", raw)
			}
		})
	}
}

// TestFormView: the labels, the defaults filled in, a required field's
// mark, the choices with the one chosen.
func TestFormView(t *testing.T) {
	m := newForm(t, contact)
	m.SetWidth(60)
	golden.RequireEqual(t, []byte(strings.Join(m.Lines(0), "\n")))
	if got := len(m.Lines(4)); got != 4 {
		t.Errorf("Lines(4) has %d lines", got)
	}
}

// TestFieldAnswer: a typed line as each kind of field's value.
func TestFieldAnswer(t *testing.T) {
	one := 1.0
	choice := Field{Kind: Choice, Options: []Option{{Value: "m", Label: "metric"}, {Value: "i", Label: "imperial"}}}
	cases := []struct {
		f       Field
		text    string
		want    any
		problem string
	}{
		{Field{Kind: String}, "hi", "hi", ""},
		{Field{Kind: String, Required: true}, " ", nil, "required"},
		{Field{Kind: String}, "", nil, ""},
		{Field{Kind: Integer, Minimum: &one}, "3", int64(3), ""},
		{Field{Kind: Integer}, "zero", nil, "a whole number"},
		{Field{Kind: Integer}, "2.5", nil, "a whole number"},
		{Field{Kind: Number}, "2.5", 2.5, ""},
		{Field{Kind: Integer, Minimum: &one}, "0", nil, "at least 1"},
		{Field{Kind: Boolean}, "Yes", true, ""},
		{Field{Kind: Boolean}, "n", false, ""},
		{Field{Kind: Boolean}, "maybe", nil, "yes or no"},
		{choice, "2", "i", ""},
		{choice, "Metric", "m", ""},
		{choice, "i", "i", ""},
		{choice, "3", nil, "one of 1 metric, 2 imperial"},
	}
	for _, c := range cases {
		got, problem := c.f.Answer(c.text)
		if got != c.want || problem != c.problem {
			t.Errorf("%v %q: %v %q, want %v %q", c.f.Kind, c.text, got, problem, c.want, c.problem)
		}
	}
}

// toppings is a schema with MCP's two multi-select shapes: an array of an
// untitled enum and one of titled values, with bounds and a default.
const toppings = `{"type":"object","properties":{
	"cheese":{"type":"array","title":"Cheese","items":{"type":"string","enum":["brie","feta","gouda"]},"default":["feta"]},
	"extras":{"type":"array","items":{"anyOf":[{"const":"o","title":"Olives"},{"const":"b","title":"Basil"}]},"minItems":1,"maxItems":1}
},"required":["extras"]}`

// TestMultiSelect: both shapes make a MultiChoice with its options and
// default; space checks the value under the cursor, ← → move it; the
// answer is an array of the values checked, in the options' order, within
// the bounds.
func TestMultiSelect(t *testing.T) {
	fields, err := FromSchema(schema(t, toppings))
	if err != nil {
		t.Fatal(err)
	}
	if len(fields) != 2 || fields[0].Kind != MultiChoice || fields[1].Kind != MultiChoice ||
		!reflect.DeepEqual(fields[0].Default, []any{"feta"}) || fields[1].Options[1] != (Option{Value: "b", Label: "Basil"}) ||
		*fields[1].MinItems != 1 || *fields[1].MaxItems != 1 {
		t.Fatalf("fields %+v", fields)
	}
	cases := []struct {
		name  string
		keys  []tea.KeyMsg
		want  map[string]any // nil: refused
		error string
	}{
		{"the default, extras missing", nil, nil, "✗ choose at least 1"},
		{"feta unchecked, gouda checked, basil", []tea.KeyMsg{right, space, right, space, tab, right, space},
			map[string]any{"cheese": []any{"gouda"}, "extras": []any{"b"}}, ""},
		{"brie checked beside the default", []tea.KeyMsg{space, tab, space},
			map[string]any{"cheese": []any{"brie", "feta"}, "extras": []any{"o"}}, ""},
		{"the cursor stops at the ends", []tea.KeyMsg{right, right, right, right, space, tab, space},
			map[string]any{"cheese": []any{"feta", "gouda"}, "extras": []any{"o"}}, ""},
		{"none of an optional one is left out", []tea.KeyMsg{right, space, tab, space},
			map[string]any{"extras": []any{"o"}}, ""},
		{"over the most", []tea.KeyMsg{tab, space, right, space}, nil, "✗ choose at most 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := press(newForm(t, toppings), c.keys...)
			content, after, ok := m.Submit()
			if c.want == nil {
				if view := strings.Join(after.Lines(0), "\n"); ok || !strings.Contains(view, c.error) {
					t.Fatalf("accepted %v (%v), or the form does not say %q:\n%s", content, ok, c.error, view)
				}
				return
			}
			if !ok || !reflect.DeepEqual(content, c.want) {
				t.Fatalf("content = %#v (ok %v), want %#v", content, ok, c.want)
			}
		})
	}
	view := strings.Join(press(newForm(t, toppings), space).Lines(0), "\n")
	for _, want := range []string{"[x] brie", "[x] feta", "[ ] gouda", "[ ] Olives"} {
		if !strings.Contains(view, want) {
			t.Errorf("the view does not say %q:\n%s", want, view)
		}
	}
	if _, err := FromSchema(schema(t, `{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}}}}`)); err == nil ||
		!strings.Contains(err.Error(), `property "tags"`) {
		t.Errorf("an array of free text: %v", err)
	}
}

// TestMultiAnswer: a typed line as a multi-select's values, separated by
// commas, each by number, label or value.
func TestMultiAnswer(t *testing.T) {
	two := 2
	f := Field{Kind: MultiChoice, MaxItems: &two, Options: []Option{{Value: "m", Label: "metric"}, {Value: "i", Label: "imperial"}, {Value: "x", Label: "other"}}}
	cases := []struct {
		text    string
		want    any
		problem string
	}{
		{"1, imperial", []any{"m", "i"}, ""},
		{"x,1", []any{"m", "x"}, ""},
		{"1,2,3", nil, "choose at most 2"},
		{"4", nil, "any of 1 metric, 2 imperial, 3 other, separated by commas"},
		{"", nil, ""},
	}
	for _, c := range cases {
		got, problem := f.Answer(c.text)
		if !reflect.DeepEqual(got, c.want) || problem != c.problem {
			t.Errorf("%q: %#v %q, want %#v %q", c.text, got, problem, c.want, c.problem)
		}
	}
}
