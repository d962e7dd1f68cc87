package keybind

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

type NavMap struct{ Up, Down key.Binding }

type testMap struct {
	NavMap
	Inner          struct{ Next key.Binding }
	ToggleThinking key.Binding
	ToggleTools    key.Binding
	Quit           key.Binding
}

func defaults() testMap {
	var m testMap
	m.Up = key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up"))
	m.Down = key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down"))
	m.Inner.Next = key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next"))
	m.ToggleThinking = key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "thinking"))
	m.ToggleTools = key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "tools"))
	m.Quit = key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit"))
	return m
}

func TestIDs(t *testing.T) {
	ids := IDs(defaults())
	for _, id := range []string{"up", "down", "next", "toggleThinking", "toggleTools", "quit"} {
		if !ids[id] {
			t.Errorf("IDs lacks %q: %v", id, ids)
		}
	}
	if len(ids) != 6 {
		t.Errorf("IDs = %v", ids)
	}
}

func TestBind(t *testing.T) {
	known := IDs(defaults())
	cases := []struct {
		name, src string
		check     func(testMap) bool
		problems  []string
	}{
		{"nothing", `{}`, func(m testMap) bool { return slices.Equal(m.Up.Keys(), []string{"up", "k"}) }, nil},
		{"one key", `{"toggleThinking": "ctrl+y"}`, func(m testMap) bool {
			return slices.Equal(m.ToggleThinking.Keys(), []string{"ctrl+y"}) && m.ToggleThinking.Help().Key == "ctrl+y" &&
				m.ToggleThinking.Help().Desc == "thinking"
		}, nil},
		{"a list, nested field", `{"next": ["f2", "alt+n"]}`, func(m testMap) bool {
			return slices.Equal(m.Inner.Next.Keys(), []string{"f2", "alt+n"}) && m.Inner.Next.Help().Key == "f2/alt+n"
		}, nil},
		{"takes a default's key", `{"toggleThinking": "k"}`, func(m testMap) bool {
			return slices.Equal(m.Up.Keys(), []string{"up"}) && m.Up.Help().Key == "up" && m.Up.Enabled() &&
				slices.Equal(m.ToggleThinking.Keys(), []string{"k"})
		}, nil},
		{"a default left keyless is disabled", `{"toggleThinking": "ctrl+o"}`, func(m testMap) bool {
			return !m.ToggleTools.Enabled() && len(m.ToggleTools.Keys()) == 0
		}, nil},
		{"swap two defaults", `{"toggleThinking": "ctrl+o", "toggleTools": "ctrl+t"}`, func(m testMap) bool {
			return slices.Equal(m.ToggleThinking.Keys(), []string{"ctrl+o"}) && slices.Equal(m.ToggleTools.Keys(), []string{"ctrl+t"}) &&
				m.ToggleThinking.Enabled() && m.ToggleTools.Enabled()
		}, nil},
		{"conflict", `{"toggleThinking": "ctrl+y", "toggleTools": ["f3", "ctrl+y"], "quit": "ctrl+q"}`, func(m testMap) bool {
			return slices.Equal(m.ToggleThinking.Keys(), []string{"ctrl+t"}) && slices.Equal(m.ToggleTools.Keys(), []string{"ctrl+o"}) &&
				slices.Equal(m.Quit.Keys(), []string{"ctrl+q"})
		}, []string{`F: "ctrl+y" is bound to both toggleThinking and toggleTools; neither binding is used`}},
		{"unknown action and bad key", `{"toggleThinkin": "ctrl+y", "quit": "ctrl+shift+q", "up": 3, "down": "pgdown"}`, func(m testMap) bool {
			return slices.Equal(m.Quit.Keys(), []string{"ctrl+c"}) && slices.Equal(m.Down.Keys(), []string{"pgdown"})
		}, []string{
			`F: "quit": unknown key "ctrl+shift+q"`,
			`F: unknown action "toggleThinkin"`,
			`F: "up": want a key such as "ctrl+t" or a list of keys, got 3`,
		}},
		{"not an object", `["x"]`, func(m testMap) bool { return slices.Equal(m.Quit.Keys(), []string{"ctrl+c"}) },
			[]string{`F: not a JSON object of action ids and keys`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, problems := Parse("F", []byte(c.src), known)
			if len(problems) != len(c.problems) {
				t.Fatalf("problems = %q, want %d", problems, len(c.problems))
			}
			for _, want := range c.problems {
				if !slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, want) }) {
					t.Errorf("problems = %q, want one starting %q", problems, want)
				}
			}
			if m := Bind(u, defaults()); !c.check(m) {
				t.Errorf("bound = %+v", m)
			}
		})
	}
}

func TestLoadMissingFileBindsNothing(t *testing.T) {
	u, problems := Load(filepath.Join(t.TempDir(), "keybindings.json"), IDs(defaults()))
	if problems != nil || Bind(u, defaults()).Quit.Keys()[0] != "ctrl+c" {
		t.Errorf("problems = %q", problems)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "keybindings.json")
	if err := os.WriteFile(path, []byte(`{"quit": "ctrl+q"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if u, problems := Load(path, IDs(defaults())); problems != nil || Bind(u, defaults()).Quit.Keys()[0] != "ctrl+q" {
		t.Errorf("Load(%s): problems %q", path, problems)
	}
}
