package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Dir is steer's configuration directory, <os.UserConfigDir()>/steer
// ($XDG_CONFIG_HOME/steer): the global config.json's directory, which
// also holds themes/ and keybindings.json whatever --config names.
func Dir() (string, error) {
	path, err := DefaultPath()
	if err != nil {
		return "", err
	}
	return filepath.Dir(path), nil
}

// ThemesDir is where theme files live: <Dir>/themes/NAME.json.
func ThemesDir() (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "themes"), nil
}

// KeyBindingsPath is the file of the user's key bindings,
// <Dir>/keybindings.json.
func KeyBindingsPath() (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "keybindings.json"), nil
}

// ParseTheme checks a theme name, from the file or the --theme flag: a
// built-in, or a theme file that exists in ThemesDir. The file's colours
// are read, and checked, by the terminal UI when it starts (tui/theme).
func ParseTheme(s string) (string, error) {
	switch s {
	case ThemeAuto, ThemeDark, ThemeLight:
		return s, nil
	}
	dir, err := ThemesDir()
	if err != nil {
		return "", err
	}
	want := fmt.Sprintf("want %s, %s, %s or the name of a file in %s", ThemeDark, ThemeLight, ThemeAuto, dir)
	if s == "" || strings.ContainsAny(s, `/\`) || strings.HasPrefix(s, ".") {
		return "", fmt.Errorf("unknown theme %q (%s)", s, want)
	}
	if _, err := os.Stat(filepath.Join(dir, s+".json")); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("unknown theme %q (%s)", s, want)
		}
		return "", fmt.Errorf("theme %q: %v", s, err)
	}
	return s, nil
}
