package form

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Answer reads text, typed for field f, as its value (nil: left out), or
// says why it is refused. The form takes a text field's answer with it; a
// line-by-line front end (plain mode) takes every field's: a Boolean reads
// y/yes/true or n/no/false, a Choice its option's number (from 1), label
// or value.
func (f Field) Answer(text string) (any, string) {
	if strings.TrimSpace(text) == "" {
		if f.Required {
			return nil, "required"
		}
		return nil, ""
	}
	switch f.Kind {
	case Number, Integer:
		return number(f, strings.TrimSpace(text))
	case Boolean:
		switch strings.ToLower(strings.TrimSpace(text)) {
		case "y", "yes", "true":
			return true, ""
		case "n", "no", "false":
			return false, ""
		}
		return nil, "yes or no"
	case Choice:
		return f.choice(strings.TrimSpace(text))
	case MultiChoice:
		return f.choices(text)
	}
	n := utf8.RuneCountInString(text)
	switch {
	case f.MinLength != nil && n < *f.MinLength:
		return nil, fmt.Sprintf("at least %d characters", *f.MinLength)
	case f.MaxLength != nil && n > *f.MaxLength:
		return nil, fmt.Sprintf("at most %d characters", *f.MaxLength)
	case f.Format == "email" && !strings.Contains(text, "@"):
		return nil, "an email address"
	}
	return text, ""
}

// choice is the option text names: its number, label or value.
func (f Field) choice(text string) (any, string) {
	if i, err := strconv.Atoi(text); err == nil && i >= 1 && i <= len(f.Options) {
		return f.Options[i-1].Value, ""
	}
	for _, o := range f.Options {
		if strings.EqualFold(o.Label, text) || strings.EqualFold(fmt.Sprint(o.Value), text) {
			return o.Value, ""
		}
	}
	return nil, "one of " + f.OptionList()
}

// choices are the options text names, separated by commas, each by its
// number, label or value, in the options' order and within the field's
// bounds.
func (f Field) choices(text string) (any, string) {
	picked := make([]bool, len(f.Options))
	for part := range strings.SplitSeq(text, ",") {
		v, err := f.choice(strings.TrimSpace(part))
		if err != "" {
			return nil, "any of " + f.OptionList() + ", separated by commas"
		}
		for i, o := range f.Options {
			if o.Value == v {
				picked[i] = true
			}
		}
	}
	return f.Picked(picked)
}

// Picked is the values of the options picked marks, in the options' order,
// or why that many are refused: fewer than MinItems, more than MaxItems,
// or none of a required field. None of an optional field is left out.
func (f Field) Picked(picked []bool) (any, string) {
	values := []any{}
	for i, p := range picked {
		if p && i < len(f.Options) {
			values = append(values, f.Options[i].Value)
		}
	}
	switch n := len(values); {
	case f.MinItems != nil && n < *f.MinItems:
		return nil, fmt.Sprintf("choose at least %d", *f.MinItems)
	case f.MaxItems != nil && n > *f.MaxItems:
		return nil, fmt.Sprintf("choose at most %d", *f.MaxItems)
	case n == 0 && f.Required:
		return nil, "choose at least one"
	case n == 0:
		return nil, ""
	}
	return values, ""
}

// OptionList names a Choice's options with their numbers: "1 red, 2 green".
func (f Field) OptionList() string {
	parts := make([]string, len(f.Options))
	for i, o := range f.Options {
		parts[i] = strconv.Itoa(i+1) + " " + o.Label
	}
	return strings.Join(parts, ", ")
}

// number is text as field f's number: an int64 for an integer, a float64
// otherwise, within the schema's bounds.
func number(f Field, text string) (any, string) {
	x, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		if f.Kind == Integer {
			return nil, "a whole number"
		}
		return nil, "a number"
	}
	var v any = x
	if f.Kind == Integer {
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, "a whole number"
		}
		v = n
	}
	switch {
	case f.Minimum != nil && x < *f.Minimum:
		return nil, "at least " + strconv.FormatFloat(*f.Minimum, 'g', -1, 64)
	case f.Maximum != nil && x > *f.Maximum:
		return nil, "at most " + strconv.FormatFloat(*f.Maximum, 'g', -1, 64)
	}
	return v, ""
}
