// Package keybind applies the user's key bindings (<config dir>/
// keybindings.json) to the TUI's KeyMaps.
//
// The file maps action ids to a key or a list of keys:
//
//	{"toggleThinking": "ctrl+y", "mouse": ["alt+m", "f2"]}
//
// An action id is a KeyMap field's name in lowerCamel; it rebinds that
// action in every KeyMap that has it (`next` moves in the transcript, the
// queue, the history search and forms alike). A user binding takes its key
// from any default binding, which loses it (a default left without keys is
// disabled, so help stops showing it). Two user bindings on one key are a
// conflict: neither is used, and the problem is reported. So are an
// unknown action id and a key Bubble Tea cannot produce; the rest of the
// file still applies.
package keybind

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// User is the bindings read from the file; the zero value binds nothing.
type User struct {
	keys  map[string][]string // field name (UpperCamel) -> keys
	taken map[string]bool     // every key some user binding has
}

// Load reads path. A missing file binds nothing. known lists the action
// ids that exist (IDs of every KeyMap). problems are one line each, naming
// the file: what Load could not use and why; what it could use is in
// User.
func Load(path string, known map[string]bool) (u User, problems []string) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return User{}, nil
	}
	if err != nil {
		return User{}, []string{fmt.Sprintf("%s: %v", path, err)}
	}
	return Parse(path, data, known)
}

// Parse is Load on the file's content.
func Parse(path string, data []byte, known map[string]bool) (u User, problems []string) {
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&fields); err != nil {
		return User{}, []string{fmt.Sprintf("%s: not a JSON object of action ids and keys: %v", path, err)}
	}
	byKey := map[string][]string{} // key -> the ids that want it
	wanted := map[string][]string{}
	for _, id := range slices.Sorted(maps.Keys(fields)) {
		if !known[id] {
			problems = append(problems, fmt.Sprintf("%s: unknown action %q (the README's key bindings section lists them)", path, id))
			continue
		}
		keys, err := parseKeys(fields[id])
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %q: %v", path, id, err))
			continue
		}
		wanted[id] = keys
		for _, k := range keys {
			byKey[k] = append(byKey[k], id)
		}
	}
	conflicted := map[string]bool{}
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		if ids := byKey[k]; len(ids) > 1 {
			problems = append(problems, fmt.Sprintf("%s: %q is bound to both %s; neither binding is used", path, k, strings.Join(ids, " and ")))
			for _, id := range ids {
				conflicted[id] = true
			}
		}
	}
	u = User{keys: map[string][]string{}, taken: map[string]bool{}}
	for id, keys := range wanted {
		if conflicted[id] {
			continue
		}
		u.keys[fieldName(id)] = keys
		for _, k := range keys {
			u.taken[k] = true
		}
	}
	return u, problems
}

// parseKeys reads a key or a list of keys.
func parseKeys(raw json.RawMessage) ([]string, error) {
	var keys []string
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		keys = []string{one}
	} else if err := json.Unmarshal(raw, &keys); err != nil || len(keys) == 0 {
		return nil, fmt.Errorf("want a key such as \"ctrl+t\" or a list of keys, got %s", raw)
	}
	for _, k := range keys {
		if !validKey(k) {
			return nil, fmt.Errorf("unknown key %q (keys are named as Bubble Tea names them: \"ctrl+t\", \"alt+enter\", \"f2\", \"x\")", k)
		}
	}
	return keys, nil
}

// keyNames are the names Bubble Tea gives the keys it produces.
var keyNames = func() map[string]bool {
	names := map[string]bool{}
	for t := tea.KeyType(-200); t < 200; t++ {
		if s := t.String(); s != "" && t != tea.KeyRunes {
			names[s] = true
		}
	}
	return names
}()

// validKey reports whether Bubble Tea can produce k: a key name or one
// printable character, with an optional "alt+".
func validKey(k string) bool {
	base := strings.TrimPrefix(k, "alt+")
	if keyNames[base] {
		return true
	}
	r, n := utf8.DecodeRuneInString(base)
	return n > 0 && n == len(base) && unicode.IsPrint(r) && r != ' '
}

// fieldName is an action id's KeyMap field: toggleThinking -> ToggleThinking.
func fieldName(id string) string {
	r, n := utf8.DecodeRuneInString(id)
	return string(unicode.ToUpper(r)) + id[n:]
}

// ID is a KeyMap field's action id: ToggleThinking -> toggleThinking.
func ID(field string) string {
	r, n := utf8.DecodeRuneInString(field)
	return string(unicode.ToLower(r)) + field[n:]
}

// Bind returns km, a KeyMap struct, with u's bindings applied: its
// fields' and its nested KeyMaps' (embedded or not).
func Bind[T any](u User, km T) T {
	if len(u.keys) == 0 {
		return km
	}
	v := reflect.ValueOf(&km).Elem()
	u.apply(v)
	return km
}

var bindingType = reflect.TypeFor[key.Binding]()

func (u User) apply(v reflect.Value) {
	for i := range v.NumField() {
		f, fv := v.Type().Field(i), v.Field(i)
		switch {
		case f.Type == bindingType:
			b := fv.Addr().Interface().(*key.Binding)
			u.rebind(f.Name, b)
		case f.Type.Kind() == reflect.Struct && f.IsExported():
			u.apply(fv)
		}
	}
}

// rebind gives b the user's keys for field, or takes from it the keys user
// bindings have.
func (u User) rebind(field string, b *key.Binding) {
	if keys, ok := u.keys[field]; ok {
		b.SetKeys(keys...)
		b.SetHelp(strings.Join(keys, "/"), b.Help().Desc)
		return
	}
	kept := slices.DeleteFunc(slices.Clone(b.Keys()), func(k string) bool { return u.taken[k] })
	if len(kept) == len(b.Keys()) {
		return
	}
	b.SetKeys(kept...)
	b.SetHelp(strings.Join(kept, "/"), b.Help().Desc)
	if len(kept) == 0 {
		b.SetEnabled(false)
	}
}

// IDs are the action ids of the KeyMap structs kms, nested ones included.
func IDs(kms ...any) map[string]bool {
	ids := map[string]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			switch {
			case f.Type == bindingType:
				ids[ID(f.Name)] = true
			case f.Type.Kind() == reflect.Struct && f.IsExported():
				walk(f.Type)
			}
		}
	}
	for _, km := range kms {
		walk(reflect.TypeOf(km))
	}
	return ids
}
