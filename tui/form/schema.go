package form

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Kind is what a field holds, and so how it is edited and what type its
// answer has.
type Kind int

// The kinds of fields: typed text, a JSON number, a whole number, yes or
// no, one of a list of values, and any of a list of values (an array).
const (
	String Kind = iota
	Number
	Integer
	Boolean
	Choice
	MultiChoice
)

// Option is one value a Choice field may take, with what it is called.
type Option struct {
	Value any
	Label string
}

// Field is one property of the requested schema: its name in the answer,
// what the form calls it (the schema's title, else the name) and says of it
// (the description), its kind, whether it must be filled in, what it starts
// with, and its bounds.
type Field struct {
	Name, Label, Help string
	Kind              Kind
	Required          bool
	// Default is the schema's default, as the field starts: the text of a
	// text field, the value of a Boolean or Choice, the values ([]any) of a
	// MultiChoice.
	Default any
	// Options are a Choice's or a MultiChoice's values; a Boolean has no,
	// then yes.
	Options []Option
	// Format is a string's format (email, uri, date, date-time).
	Format string
	// The bounds the schema sets: MinLength and MaxLength of a string,
	// Minimum and Maximum of a number, MinItems and MaxItems of a
	// MultiChoice (nil: none).
	MinLength, MaxLength *int
	Minimum, Maximum     *float64
	MinItems, MaxItems   *int
}

// titled is one titled value of an enum: {"const": v, "title": t}.
type titled struct {
	Const any    `json:"const"`
	Title string `json:"title"`
}

// property is the part of a property's schema a form reads.
type property struct {
	Type        string   `json:"type"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Default     any      `json:"default"`
	Enum        []any    `json:"enum"`
	EnumNames   []string `json:"enumNames"`
	OneOf       []titled `json:"oneOf"`
	Format      string   `json:"format"`
	MinLength   *int     `json:"minLength"`
	MaxLength   *int     `json:"maxLength"`
	Minimum     *float64 `json:"minimum"`
	Maximum     *float64 `json:"maximum"`
	// Items, MinItems and MaxItems are a multi-select's: an array whose
	// items are an enum, untitled ("enum") or titled ("anyOf").
	Items *struct {
		Type  string   `json:"type"`
		Enum  []any    `json:"enum"`
		AnyOf []titled `json:"anyOf"`
	} `json:"items"`
	MinItems *int `json:"minItems"`
	MaxItems *int `json:"maxItems"`
}

// FromSchema makes the fields of a requested schema: an object of flat
// properties (string, number, integer, boolean, one of an enum, or an
// array of an enum's values, as MCP's elicitation schemas allow), in the
// order the schema's JSON lists them (a schema decoded into a map has lost
// that order: then by name, as it marshals). Any other shape is an error that says which
// property steer cannot ask for.
func FromSchema(schema any) ([]Field, error) {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("the requested schema is not JSON: %w", err)
	}
	var top struct {
		Type       string          `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("the requested schema is not an object schema: %w", err)
	}
	if top.Type != "" && top.Type != "object" {
		return nil, fmt.Errorf("the requested schema is of type %q, not an object", top.Type)
	}
	names, props, err := orderedProperties(top.Properties)
	if err != nil {
		return nil, err
	}
	fields := make([]Field, 0, len(names))
	for _, name := range names {
		f, err := field(name, props[name], slices.Contains(top.Required, name))
		if err != nil {
			return nil, err
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// orderedProperties reads the properties object keeping its order, which
// is the order the server wants them asked in.
func orderedProperties(raw json.RawMessage) ([]string, map[string]property, error) {
	props := map[string]property{}
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, props, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, errors.New("the requested schema's properties are not an object")
	}
	var names []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, fmt.Errorf("reading the requested schema: %w", err)
		}
		name, _ := t.(string)
		var p property
		if err := dec.Decode(&p); err != nil {
			return nil, nil, fmt.Errorf("property %q of the requested schema: %w", name, err)
		}
		if _, dup := props[name]; !dup {
			names = append(names, name)
		}
		props[name] = p
	}
	return names, props, nil
}

// field is property p called name as a form field.
func field(name string, p property, required bool) (Field, error) {
	f := Field{Name: name, Label: p.Title, Help: p.Description, Required: required, Format: p.Format,
		MinLength: p.MinLength, MaxLength: p.MaxLength, Minimum: p.Minimum, Maximum: p.Maximum}
	if f.Label == "" {
		f.Label = name
	}
	switch {
	case len(p.OneOf) > 0:
		f.Kind = Choice
		for _, o := range p.OneOf {
			f.Options = append(f.Options, Option{Value: o.Const, Label: labelOr(o.Title, o.Const)})
		}
	case len(p.Enum) > 0:
		f.Kind = Choice
		for i, v := range p.Enum {
			label := ""
			if i < len(p.EnumNames) {
				label = p.EnumNames[i]
			}
			f.Options = append(f.Options, Option{Value: v, Label: labelOr(label, v)})
		}
	case p.Type == "array":
		return multiChoice(f, name, p)
	case p.Type == "string":
		f.Kind = String
	case p.Type == "number":
		f.Kind = Number
	case p.Type == "integer":
		f.Kind = Integer
	case p.Type == "boolean":
		f.Kind = Boolean
		f.Options = []Option{{Value: false, Label: "no"}, {Value: true, Label: "yes"}}
	default:
		return Field{}, fmt.Errorf("property %q of the requested schema is of type %q, which a form cannot ask for", name, p.Type)
	}
	f.Default = p.Default
	return f, nil
}

// multiChoice is f, the array property p called name, as a field that
// takes any of its items' values; an array of anything but an enum is an
// error.
func multiChoice(f Field, name string, p property) (Field, error) {
	f.Kind, f.MinItems, f.MaxItems = MultiChoice, p.MinItems, p.MaxItems
	switch {
	case p.Items != nil && len(p.Items.AnyOf) > 0:
		for _, o := range p.Items.AnyOf {
			f.Options = append(f.Options, Option{Value: o.Const, Label: labelOr(o.Title, o.Const)})
		}
	case p.Items != nil && len(p.Items.Enum) > 0:
		for _, v := range p.Items.Enum {
			f.Options = append(f.Options, Option{Value: v, Label: labelOr("", v)})
		}
	default:
		return Field{}, fmt.Errorf("property %q of the requested schema is an array of other than an enum's values, which a form cannot ask for", name)
	}
	if d, ok := p.Default.([]any); ok {
		f.Default = d
	}
	return f, nil
}

// labelOr is label, else value as text.
func labelOr(label string, value any) string {
	if label != "" {
		return label
	}
	return fmt.Sprint(value)
}
