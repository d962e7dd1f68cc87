package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeConfigFile writes name under dir/steer (the config directory of
// XDG_CONFIG_HOME=dir).
func writeConfigFile(t *testing.T, dir, name, content string) {
	t.Helper()
	path := filepath.Join(dir, "steer", name)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestThemeAndKeyBindingFiles: a theme file changes the colours, a key
// bindings file the binding (help shows it, the key works), and a
// conflicting binding is reported at start-up, naming both actions.
func TestThemeAndKeyBindingFiles(t *testing.T) {
	cfg := t.TempDir()
	writeConfigFile(t, cfg, "themes/sea.json", `{"accent": "201"}`)
	writeConfigFile(t, cfg, "keybindings.json", `{"mouse": "f2", "toggleThinking": "ctrl+y", "toggleTools": "ctrl+y"}`)
	// CI set, as CI machines and some dev containers do: a terminal is
	// still a terminal, and gets colours.
	p := startPane(t, fmt.Sprintf("CI=true XDG_CONFIG_HOME=%q exec %q --state-dir %q --theme sea", cfg, steerBin, t.TempDir()))
	p.waitFor("the conflict", `keybindings.json: "ctrl+y" is bound to both toggleThinking and`, 10*time.Second)
	if s := p.screen(); !strings.Contains(s, "toggleTools; neither binding is used") {
		t.Errorf("the conflict names one action:\n%s", s)
	}
	if colours := p.tmux("capture-pane", "-p", "-e"); !strings.Contains(colours, "38;5;201") {
		t.Errorf("the theme's accent (201) is not on screen:\n%q", colours)
	}
	p.typeText("", "F2")
	p.waitFor("the rebound key", "mouse on", 10*time.Second)
	p.typeText("/help", "Enter")
	p.waitFor("help", "Keys and commands", 10*time.Second)
	for page := 0; !strings.Contains(p.screen(), "f2           mouse off"); page++ {
		if page == 4 {
			t.Fatalf("help does not show f2 for the mouse:\n%s", p.screen())
		}
		before := p.screen()
		p.typeText("", "NPage")
		for deadline := time.Now().Add(5 * time.Second); p.screen() == before && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond) // poll interval, not a wait for the app
		}
	}
}

// TestBadThemeFileStopsStartUp: a bad colour names the file and the key.
func TestBadThemeFileStopsStartUp(t *testing.T) {
	cfg := t.TempDir()
	writeConfigFile(t, cfg, "themes/sea.json", `{"accent": "pink"}`)
	p := startPaneShowing(t, fmt.Sprintf("XDG_CONFIG_HOME=%q %q --state-dir %q --theme sea; echo \"steer exited $?\"; exec sleep 600", cfg, steerBin, t.TempDir()),
		"steer exited")
	if s := p.screen(); !strings.Contains(s, `sea.json: "accent": bad colour "pink"`) {
		t.Errorf("screen:\n%s", s)
	}
}

// TestThemeFileReadAgain: a theme file changed while steer runs is read
// again and its colours drawn; /theme switches to a built-in.
func TestThemeFileReadAgain(t *testing.T) {
	cfg := t.TempDir()
	writeConfigFile(t, cfg, "themes/sea.json", `{"accent": "201"}`)
	p := startPane(t, fmt.Sprintf("XDG_CONFIG_HOME=%q exec %q --state-dir %q --theme sea", cfg, steerBin, t.TempDir()))
	writeConfigFile(t, cfg, "themes/sea.json", `{"accent": "33", "muted": "34"}`)
	p.waitFor("the hint", "theme sea read again from its file", 20*time.Second)
	if colours := p.tmux("capture-pane", "-p", "-e"); !strings.Contains(colours, "38;5;33") {
		t.Errorf("the changed accent (33) is not on screen:\n%q", colours)
	}
	p.typeText("/theme", "Enter")
	p.waitFor("the picker", "sea  (", 10*time.Second)
	p.typeText("", "Home")
	p.typeText("", "Enter")
	p.waitFor("the built-in", "theme dark (for this session", 10*time.Second)
}
