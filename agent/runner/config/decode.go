package config

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// decoder fills the file schema (schema.go) from a node tree. It is strict:
// an unknown or duplicate key, or a value of the wrong type, is an error
// naming its path and line. It records the file and line of every path it
// visits so that validation can point at the file too: merged layers
// (layers.go) come from several files.
type decoder struct {
	file  string // the file of paths not visited
	lines map[string]int
	files map[string]string
}

func newDecoder(file string) *decoder {
	return &decoder{file: file, lines: map[string]int{}, files: map[string]string{}}
}

// errAt is an Error at the line where path was found.
func (d *decoder) errAt(path, format string, args ...any) *Error {
	return &Error{File: d.fileOf(path), Line: d.lines[path], Path: path, Msg: fmt.Sprintf(format, args...)}
}

// fileOf is the file the value at path came from.
func (d *decoder) fileOf(path string) string {
	if f := d.files[path]; f != "" {
		return f
	}
	return d.file
}

// note records where the value at path was read.
func (d *decoder) note(path string, line int, file string) {
	d.lines[path] = line
	if file != "" {
		d.files[path] = file
	}
}

// rawJSON is the schema type of a value taken as it is, any JSON.
var rawJSON = reflect.TypeFor[json.RawMessage]()

func (d *decoder) decode(n *node, v reflect.Value, path string) error {
	if _, ok := d.lines[path]; !ok {
		d.note(path, n.line, n.file)
	}
	if n.kind == kindNull {
		return nil // null leaves the default in place
	}
	if v.Type() == rawJSON {
		raw, err := json.Marshal(n.value())
		if err != nil {
			return d.errAt(path, "%v", err)
		}
		v.SetBytes(raw)
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return d.decode(n, v.Elem(), path)
	case reflect.Struct:
		return d.object(n, v, path)
	case reflect.Map:
		return d.mapping(n, v, path)
	case reflect.Slice:
		if n.kind != kindArray {
			return d.wrongType(n, path, "an array")
		}
		s := reflect.MakeSlice(v.Type(), len(n.elems), len(n.elems))
		for i, e := range n.elems {
			if err := d.decode(e, s.Index(i), indexPath(path, i)); err != nil {
				return err
			}
		}
		v.Set(s)
	case reflect.String:
		if n.kind != kindString {
			return d.wrongType(n, path, "a string")
		}
		v.SetString(n.str)
	case reflect.Bool:
		if n.kind != kindBool {
			return d.wrongType(n, path, "true or false")
		}
		v.SetBool(n.b)
	case reflect.Int:
		if n.kind != kindNumber {
			return d.wrongType(n, path, "a whole number")
		}
		i, err := strconv.ParseInt(n.num.String(), 10, 64)
		if err != nil {
			f, ferr := strconv.ParseFloat(n.num.String(), 64)
			if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
				return d.errAt(path, "want a whole number, got %s", n.num)
			}
			i = int64(f)
		}
		v.SetInt(i)
	case reflect.Float64:
		if n.kind != kindNumber {
			return d.wrongType(n, path, "a number")
		}
		f, err := strconv.ParseFloat(n.num.String(), 64)
		if err != nil {
			return d.errAt(path, "want a number, got %s", n.num)
		}
		v.SetFloat(f)
	default:
		return d.errAt(path, "internal error: unsupported schema type %s", v.Type()) // a bug in schema.go
	}
	return nil
}

func (d *decoder) wrongType(n *node, path, want string) error {
	return d.errAt(path, "want %s, got %s", want, n.kind)
}

func (d *decoder) object(n *node, v reflect.Value, path string) error {
	if n.kind != kindObject {
		return d.wrongType(n, path, "an object")
	}
	t := v.Type()
	names := make([]string, 0, t.NumField())
	index := map[string]int{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		names = append(names, name)
		index[name] = i
	}
	seen := map[string]bool{}
	for _, f := range n.keys {
		p := joinPath(path, f.name)
		i, ok := index[f.name]
		if !ok {
			msg := fmt.Sprintf("unknown key %q", p)
			if s := suggest(f.name, names); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			} else {
				msg += " (known: " + strings.Join(names, ", ") + ")"
			}
			return &Error{File: f.val.file, Line: f.line, Msg: msg}
		}
		if seen[f.name] {
			return &Error{File: f.val.file, Line: f.line, Msg: fmt.Sprintf("duplicate key %q", p)}
		}
		seen[f.name] = true
		d.note(p, f.line, f.val.file)
		if err := d.decode(f.val, v.Field(i), p); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) mapping(n *node, v reflect.Value, path string) error {
	if n.kind != kindObject {
		return d.wrongType(n, path, "an object")
	}
	m := reflect.MakeMapWithSize(v.Type(), len(n.keys))
	for _, f := range n.keys {
		p := joinPath(path, f.name)
		if f.name == "" {
			return &Error{File: f.val.file, Line: f.line, Path: path, Msg: "empty key"}
		}
		if m.MapIndex(reflect.ValueOf(f.name)).IsValid() {
			return &Error{File: f.val.file, Line: f.line, Msg: fmt.Sprintf("duplicate key %q", p)}
		}
		d.note(p, f.line, f.val.file)
		e := reflect.New(v.Type().Elem()).Elem()
		if err := d.decode(f.val, e, p); err != nil {
			return err
		}
		m.SetMapIndex(reflect.ValueOf(f.name), e)
	}
	v.Set(m)
	return nil
}
