package tui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"

	"github.com/steer-tui/steer/tui/chat"
	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/form"
	"github.com/steer-tui/steer/tui/input"
	"github.com/steer-tui/steer/tui/inspect"
	"github.com/steer-tui/steer/tui/keybind"
	"github.com/steer-tui/steer/tui/listnav"
	"github.com/steer-tui/steer/tui/queue"
	"github.com/steer-tui/steer/tui/treeview"
)

// STYLE 9: every binding is declared once, in a KeyMap, and that
// declaration drives matching, the help line and the README's key table.
// TestKeyScopes (keys_test.go) checks that no key is bound twice in any
// state the UI can be in; the tests here check every declaration itself.

// keyMaps are the default KeyMaps of every component, by the constructor
// that makes them. TestEveryKeyMapIsListed keeps the list whole.
var keyMaps = map[string]any{
	"tui.DefaultKeyMap":          DefaultKeyMap(),
	"input.DefaultKeyMap":        input.DefaultKeyMap(),
	"input.DefaultEditKeyMap":    input.DefaultEditKeyMap(),
	"input.DefaultHistoryKeyMap": input.DefaultHistoryKeyMap(),
	"dialog.DefaultKeyMap":       dialog.DefaultKeyMap(),
	"form.DefaultKeyMap":         form.DefaultKeyMap(),
	"inspect.DefaultKeyMap":      inspect.DefaultKeyMap(),
	"treeview.DefaultKeyMap":     treeview.DefaultKeyMap(),
	"chat.DefaultKeyMap":         chat.DefaultKeyMap(),
	"queue.DefaultKeyMap":        queue.DefaultKeyMap(),
	"listnav.DefaultKeyMap":      listnav.DefaultKeyMap(),
}

// declared is every key.Binding field of the KeyMap v, embedded ones too,
// by field name.
func declared(v any) map[string]key.Binding {
	out := map[string]key.Binding{}
	var walk func(rv reflect.Value, prefix string)
	walk = func(rv reflect.Value, prefix string) {
		for i := range rv.NumField() {
			f, fv := rv.Type().Field(i), rv.Field(i)
			switch b, ok := fv.Interface().(key.Binding); {
			case ok:
				out[prefix+f.Name] = b
			case f.Anonymous && fv.Kind() == reflect.Struct:
				walk(fv, prefix+f.Name+".")
			}
		}
	}
	walk(reflect.ValueOf(v), "")
	return out
}

// TestEveryKeyMapIsListed finds every Default…KeyMap constructor under
// tui/ and fails for one keyMaps lacks, so a new component's bindings
// cannot escape the checks below.
func TestEveryKeyMapIsListed(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Default") || !strings.HasSuffix(fn.Name.Name, "KeyMap") {
				continue
			}
			if name := f.Name.Name + "." + fn.Name.Name; keyMaps[name] == nil {
				t.Errorf("%s (%s) is not in keyMaps: add it, and its keys to the README's key table", name, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestEveryBindingHasHelp: a binding declared without help text would be
// matched but never shown.
func TestEveryBindingHasHelp(t *testing.T) {
	for name, km := range keyMaps {
		bs := declared(km)
		if len(bs) == 0 {
			t.Errorf("%s declares no bindings", name)
		}
		for field, b := range bs {
			if h := b.Help(); h.Key == "" || h.Desc == "" || len(b.Keys()) == 0 {
				t.Errorf("%s.%s: keys %q, help %+v", name, field, b.Keys(), h)
			}
		}
	}
}

// readmeAliases spell the README's key names the way help does.
var readmeAliases = map[string]string{"del": "delete", "pgdown": "pgdn", "escape": "esc", "return": "enter"}

// normKey is a key name as both sides compare it: "Ctrl+O" and "ctrl+o"
// are the same key.
func normKey(k string) string {
	k = strings.ToLower(strings.TrimSpace(k))
	if a, ok := readmeAliases[k]; ok {
		return a
	}
	return k
}

// readmeKeys reads the keys named in the first column of the README's
// `| Key | What it does |` table: "Tab / Shift+Tab", "↑ ↓, Enter/Space
// (transcript)" or "`/`" (a key written in backticks is taken as it is).
func readmeKeys(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "| Key | What it does |"):
			in = true
			continue
		case !in || strings.HasPrefix(line, "|---"):
			continue
		case !strings.HasPrefix(line, "|"):
			in = false
			continue
		}
		cell := strings.Split(line, "|")[1]
		for strings.Contains(cell, "(") && strings.Contains(cell, ")") { // "(a question)" says where, it is no key
			i := strings.Index(cell, "(")
			j := strings.Index(cell[i:], ")")
			cell = cell[:i] + cell[i+j+1:]
		}
		for _, tok := range strings.FieldsFunc(cell, func(r rune) bool { return r == ' ' || r == ',' }) {
			if len(tok) > 2 && strings.HasPrefix(tok, "`") && strings.HasSuffix(tok, "`") {
				keys[normKey(tok[1:len(tok)-1])] = true
				continue
			}
			for _, k := range strings.Split(tok, "/") {
				if k != "" {
					keys[normKey(k)] = true
				}
			}
		}
	}
	if len(keys) == 0 {
		t.Fatal("the README has no key table")
	}
	return keys
}

func TestReadmeKeyTable(t *testing.T) {
	cases := []struct {
		cell string
		want []string
	}{
		{"Tab / Shift+Tab", []string{"shift+tab", "tab"}},
		{"↑ ↓, Enter/Space (transcript)", []string{"enter", "space", "↑", "↓"}},
		{"`/`", []string{"/"}},
		{"Del/d (queue)", []string{"d", "delete"}},
	}
	for _, c := range cases {
		dir := t.TempDir()
		readme := "# x\n\n| Key | What it does |\n|---|---|\n| " + c.cell + " | it |\n\nafter | not a row\n"
		if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte(readme), 0o600); err != nil {
			t.Fatal(err)
		}
		sub := filepath.Join(dir, "tui")
		if err := os.Mkdir(sub, 0o700); err != nil {
			t.Fatal(err)
		}
		t.Chdir(sub)
		var got []string
		for k := range readmeKeys(t) {
			got = append(got, k)
		}
		sort.Strings(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%q reads as %q, want %q", c.cell, got, c.want)
		}
	}
}

// TestReadmeNamesEveryKey: every key a KeyMap declares (by its help key;
// "↑/k" names two) has a row in the README's key table, so the README
// cannot drift from the code.
func TestReadmeNamesEveryKey(t *testing.T) {
	documented := readmeKeys(t)
	for _, name := range slices.Sorted(maps.Keys(keyMaps)) {
		bs := declared(keyMaps[name])
		for _, field := range slices.Sorted(maps.Keys(bs)) {
			b := bs[field]
			for _, k := range strings.Split(b.Help().Key, "/") {
				if k != "" && !documented[normKey(k)] {
					t.Errorf("%s.%s: key %q (%s) is not in the README's key table", name, field, k, b.Help().Desc)
				}
			}
		}
	}
}

// TestActionIDsCoverEveryKeyMap: keybindings.json may name every binding
// of every KeyMap, and nothing else.
func TestActionIDsCoverEveryKeyMap(t *testing.T) {
	want := map[string]bool{}
	for _, km := range keyMaps {
		for field := range declared(km) {
			want[keybind.ID(field[strings.LastIndex(field, ".")+1:])] = true
		}
	}
	if got := actionIDs(); !maps.Equal(got, want) {
		t.Errorf("actionIDs = %v\nwant %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
}
