package theme

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
)

func TestParseThemeFile(t *testing.T) {
	cases := []struct {
		name, src string
		check     func(Theme) bool
		err       string
	}{
		{"subset over dark", `{"accent": "#ff8700", "error": "196"}`, func(th Theme) bool {
			return th.Accent == lipgloss.Color("#ff8700") && th.Error == lipgloss.Color("196") &&
				th.Text == Dark().Text && th.Base == SettingDark && th.Name == "sea"
		}, ""},
		{"light base", `{"base": "light", "text": "#123"}`, func(th Theme) bool {
			return th.Text == lipgloss.Color("#123") && th.Muted == Light().Muted && th.Base == SettingLight
		}, ""},
		{"code feeds markdown", `{"code": "#00ff00"}`, func(th Theme) bool {
			return th.Markdown.Code.Color != nil && *th.Markdown.Code.Color == "#00ff00"
		}, ""},
		{"unknown key", `{"accnt": "1"}`, nil, `sea.json: unknown key "accnt" (want base, accent, border, code, error, muted, subtle, success, text, warning)`},
		{"bad hex", `{"text": "#12345g"}`, nil, `sea.json: "text": bad colour "#12345g": want #rrggbb or #rgb`},
		{"number out of range", `{"muted": "256"}`, nil, `sea.json: "muted": bad colour "256"`},
		{"not a string", `{"muted": 12}`, nil, `sea.json: "muted": want a colour string`},
		{"bad base", `{"base": "blue"}`, nil, `sea.json: "base": want "dark" or "light", got "blue"`},
		{"not an object", `["text"]`, nil, `sea.json: not a JSON object of colours`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			th, err := Parse(filepath.Join("themes", "sea.json"), []byte(c.src))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want it to contain %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !c.check(th) {
				t.Errorf("theme = %+v", th)
			}
		})
	}
}

// TestDarkInlineCodeIsNotErrorRed: Glamour's dark style draws `code` in
// 203, the red of errors.
func TestDarkInlineCodeIsNotErrorRed(t *testing.T) {
	for _, th := range []Theme{Dark(), Light()} {
		code := th.Markdown.Code.Color
		if code == nil || lipgloss.Color(*code) == th.Error || *code == "203" {
			t.Errorf("%s: inline code colour %v, error %v", th.Name, code, th.Error)
		}
	}
}

func TestChooseAndFiles(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{"sea.json": `{"accent": "33"}`, "dark.json": `{}`, "notes.txt": ``} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	names, err := Files(dir)
	if err != nil || !slices.Equal(names, []string{"sea"}) {
		t.Errorf("Files = %q, %v; want [sea] (dark.json is shadowed by the built-in)", names, err)
	}
	env := func(string) string { return "" }
	th, err := Choose("sea", dir, env, nil)
	if err != nil || th.Accent != lipgloss.Color("33") || th.Name != "sea" {
		t.Errorf("Choose(sea) = %+v, %v", th, err)
	}
	if th, err := Choose("dark", dir, env, nil); err != nil || th.Name != "dark" {
		t.Errorf("Choose(dark) = %s, %v; the built-in wins", th.Name, err)
	}
	if _, err := Choose("gone", dir, env, nil); err == nil || !strings.Contains(err.Error(), `theme "gone": no file `+filepath.Join(dir, "gone.json")) {
		t.Errorf("Choose(gone) = %v", err)
	}
	noColor := func(k string) string {
		if k == "NO_COLOR" {
			return "1"
		}
		return ""
	}
	if th, err := Choose("sea", dir, noColor, nil); err != nil || th.Name != "plain" {
		t.Errorf("Choose(sea) with NO_COLOR = %s, %v", th.Name, err)
	}
}
