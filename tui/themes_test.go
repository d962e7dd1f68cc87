package tui

import (
	"os"
	"path/filepath"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// TestThemeCommandAndFileWatch: /theme NAME applies a theme file at once;
// a change to the file is read again at the next look and applied, a bad
// one is reported and the theme stays; /theme lists the built-ins and the
// files.
func TestThemeCommandAndFileWatch(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "sea.json")
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"accent": "201"}`)
	h := newHarness(t, newRuntime(t, nil), 100, 30, func(o *Options) { o.ThemesDir = dir })
	accent := func(want string) func(Model) bool {
		return func(m Model) bool { return m.opts.Theme.Accent == lipgloss.Color(want) }
	}

	h.typeText("/theme sea")
	h.key(tea.KeyEnter, false)
	h.waitFor("the file's theme", accent("201"))
	if h.m.opts.Theme.Name != "sea" || h.m.themeWatch == nil {
		t.Fatalf("theme %q, watch %v", h.m.opts.Theme.Name, h.m.themeWatch)
	}
	h.waitView("theme sea")

	write(`{"accent": "33", "base": "light"}`)
	h.send(storeTickMsg{})
	h.waitFor("the changed file applied", accent("33"))
	h.waitView("read again")
	if h.m.opts.Theme.Base != "light" {
		t.Errorf("base %q after the change, want light", h.m.opts.Theme.Base)
	}

	write(`{"accent": "pink"}`)
	h.send(storeTickMsg{})
	h.waitView("stays as it was")
	if !accent("33")(h.m) {
		t.Errorf("a bad file changed the theme: accent %v", h.m.opts.Theme.Accent)
	}

	h.typeText("/theme")
	h.key(tea.KeyEnter, false)
	h.waitView("dark", "light", "sea  (")
}
