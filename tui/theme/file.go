package theme

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/glamour/styles"
	"github.com/charmbracelet/lipgloss"
)

// A theme file is <config dir>/themes/NAME.json: an object whose keys are
// the palette's names in lowerCamel (palette below) and whose values are
// colours, "#rrggbb" (or "#rgb") or an ANSI number "0"–"255". Any subset
// may be given: the others come from "base", "dark" (the default) or
// "light", which also gives the markdown style. An unknown key or a bad
// colour is an error naming the file and the key; nothing is half-applied.

// baseKey names the built-in a theme file starts from.
const baseKey = "base"

// palette maps each key of a theme file to the colour it sets.
var palette = map[string]func(*Theme) *lipgloss.TerminalColor{
	"text":    func(t *Theme) *lipgloss.TerminalColor { return &t.Text },
	"muted":   func(t *Theme) *lipgloss.TerminalColor { return &t.Muted },
	"subtle":  func(t *Theme) *lipgloss.TerminalColor { return &t.Subtle },
	"accent":  func(t *Theme) *lipgloss.TerminalColor { return &t.Accent },
	"error":   func(t *Theme) *lipgloss.TerminalColor { return &t.Error },
	"warning": func(t *Theme) *lipgloss.TerminalColor { return &t.Warning },
	"success": func(t *Theme) *lipgloss.TerminalColor { return &t.Success },
	"border":  func(t *Theme) *lipgloss.TerminalColor { return &t.Border },
	"code":    func(t *Theme) *lipgloss.TerminalColor { return &t.Code },
}

// PaletteKeys are the colour keys a theme file may set, sorted.
func PaletteKeys() []string { return slices.Sorted(maps.Keys(palette)) }

// Builtin reports whether name is a built-in theme setting (auto, dark,
// light), which no file can replace.
func Builtin(name string) bool {
	return name == SettingAuto || name == SettingDark || name == SettingLight
}

// Path is the file of the theme name in dir (<config dir>/themes).
func Path(dir, name string) string { return filepath.Join(dir, name+".json") }

// Load reads the theme file name from dir.
func Load(dir, name string) (Theme, error) {
	path := Path(dir, name)
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Theme{}, fmt.Errorf("theme %q: no file %s", name, path)
		}
		return Theme{}, fmt.Errorf("theme %q: %v", name, err)
	}
	return Parse(path, data)
}

// Parse reads a theme file's content; path names the file in errors and
// its base name (less .json) names the theme.
func Parse(path string, data []byte) (Theme, error) {
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&fields); err != nil {
		return Theme{}, fmt.Errorf("%s: not a JSON object of colours: %v", path, err)
	}
	if dec.More() {
		return Theme{}, fmt.Errorf("%s: more than one JSON value", path)
	}
	t := Dark()
	if raw, ok := fields[baseKey]; ok {
		var base string
		if err := json.Unmarshal(raw, &base); err != nil || (base != SettingDark && base != SettingLight) {
			return Theme{}, fmt.Errorf("%s: %q: want %q or %q, got %s", path, baseKey, SettingDark, SettingLight, raw)
		}
		if base == SettingLight {
			t = Light()
		}
	}
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if k == baseKey {
			continue
		}
		dest, ok := palette[k]
		if !ok {
			return Theme{}, fmt.Errorf("%s: unknown key %q (want %s, %s)", path, k, baseKey, strings.Join(PaletteKeys(), ", "))
		}
		c, err := parseColour(fields[k])
		if err != nil {
			return Theme{}, fmt.Errorf("%s: %q: %v", path, k, err)
		}
		*dest(&t) = c
	}
	t.Name = strings.TrimSuffix(filepath.Base(path), ".json")
	base := styles.DarkStyleConfig
	if t.Base == SettingLight {
		base = styles.LightStyleConfig
	}
	return t.withMarkdown(base), nil
}

// parseColour reads a colour value: "#rrggbb", "#rgb" or "0"–"255".
func parseColour(raw json.RawMessage) (lipgloss.Color, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("want a colour string such as \"#d7af87\" or \"180\", got %s", raw)
	}
	if hex, ok := strings.CutPrefix(s, "#"); ok {
		if _, err := strconv.ParseUint(hex, 16, 32); err == nil && (len(hex) == 6 || len(hex) == 3) {
			return lipgloss.Color(s), nil
		}
		return "", fmt.Errorf("bad colour %q: want #rrggbb or #rgb", s)
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 0 && n <= 255 && s == strconv.Itoa(n) {
		return lipgloss.Color(s), nil
	}
	return "", fmt.Errorf("bad colour %q: want #rrggbb, #rgb or an ANSI number 0-255", s)
}

// Files lists the theme files in dir by name, sorted; a missing dir holds
// none. Files named after a built-in are left out, since the built-in
// always wins (Builtin).
func Files(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if ok && !e.IsDir() && name != "" && !Builtin(name) {
			names = append(names, name)
		}
	}
	return names, nil
}

// Choose is Detect for a setting that may also name a theme file in dir:
// a built-in setting goes to Detect; any other name is read from its file,
// unless NO_COLOR asks for Plain.
func Choose(setting, dir string, getenv func(string) string, ask Ask) (Theme, error) {
	switch {
	case setting == "" || Builtin(setting):
		return Detect(setting, getenv, ask)
	case getenv("NO_COLOR") != "":
		return Plain(), nil
	}
	return Load(dir, setting)
}
