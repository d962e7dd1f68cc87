package theme

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/tui/theme/internal/deferquery"
)

func init() {
	// Bubble Tea's init has run by now (this package imports it through
	// Bubbles) without asking the terminal anything: see deferquery. Put
	// TERM back, and give termenv and lipgloss outputs that read it.
	deferquery.Restore()
	out := termenv.NewOutput(os.Stdout)
	termenv.SetDefaultOutput(out)
	lipgloss.DefaultRenderer().SetOutput(out)
}

// The settings of the theme (the --theme flag, ui.theme in the config).
const (
	SettingAuto  = "auto"
	SettingDark  = "dark"
	SettingLight = "light"
)

// QueryTimeout is how long Detect's question to the terminal may take: a
// terminal answers within a few milliseconds or not at all, and the first
// frame must not wait.
const QueryTimeout = 100 * time.Millisecond

// Ask asks the terminal whether its background is dark; ok is false when it
// could not tell (no answer in time, not a terminal).
type Ask func() (dark, ok bool)

// Detect chooses the theme for setting, once, before the program starts:
//
//   - NO_COLOR set (to anything): Plain, whatever the setting.
//   - "dark" or "light": that theme.
//   - "auto" or "": COLORFGBG when it says ("15;0": a background of 0–6 or
//     8 is dark), else the terminal's answer to ask, else Dark.
//
// getenv reads the environment (os.Getenv); ask may be nil, which asks
// nothing. Any other setting is an error naming the allowed values. Main
// then tells lipgloss: lipgloss.SetHasDarkBackground(t.Base != SettingLight).
func Detect(setting string, getenv func(string) string, ask Ask) (Theme, error) {
	switch setting {
	case "", SettingAuto, SettingDark, SettingLight:
	default:
		return Theme{}, fmt.Errorf("unknown theme %q: use %s, %s or %s", setting, SettingAuto, SettingDark, SettingLight)
	}
	switch {
	case getenv("NO_COLOR") != "":
		return Plain(), nil
	case setting == SettingDark:
		return Dark(), nil
	case setting == SettingLight:
		return Light(), nil
	}
	if dark, ok := colorFGBGDark(getenv("COLORFGBG")); ok {
		return pick(dark), nil
	}
	if ask != nil && getenv("TERM") != "dumb" {
		if dark, ok := ask(); ok {
			return pick(dark), nil
		}
	}
	return Dark(), nil
}

func pick(dark bool) Theme {
	if dark {
		return Dark()
	}
	return Light()
}

// colorFGBGDark reads COLORFGBG ("15;0": foreground;background, some
// terminals put a third field between): a background of 0–6 or 8 is dark.
// ok is false when the variable is unset or unreadable.
func colorFGBGDark(v string) (dark, ok bool) {
	if v == "" {
		return false, false
	}
	fields := strings.Split(v, ";")
	var bg int
	if _, err := fmt.Sscanf(fields[len(fields)-1], "%d", &bg); err != nil {
		return false, false
	}
	return bg <= 6 || bg == 8, true
}
