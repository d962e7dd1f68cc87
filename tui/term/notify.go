package term

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/tui/sanitize"
)

// The ui.notifications settings.
const (
	NotifyOff     = "off"     // nothing, and no focus reporting
	NotifyBell    = "bell"    // the bell (BEL), whatever the terminal
	NotifyDesktop = "desktop" // the terminal's desktop notification, else the bell (the default)
)

// escape is a way to notify.
type escape int

const (
	none   escape = iota
	bell          // BEL
	osc9          // OSC 9 ; body
	osc777        // OSC 777 ; notify ; title ; body
	osc99         // OSC 99 (kitty's protocol): title, then body
)

// desktopTerminals is DetectNotifier's table, tried in order: the first
// variable set (to value, when value is given; a value ending in "*" is a
// prefix) names the terminal and its escape. TERM_PROGRAM and TERM are
// tmux's own inside tmux, so the terminal's own variables come first.
// README's "Notifications" table is this one.
var desktopTerminals = []struct {
	env, value string
	how        escape
	terminal   string
}{
	{"KITTY_WINDOW_ID", "", osc99, "kitty"},
	{"TERM", "xterm-kitty", osc99, "kitty"},
	{"GHOSTTY_RESOURCES_DIR", "", osc777, "Ghostty"},
	{"TERM_PROGRAM", "ghostty", osc777, "Ghostty"},
	{"TERM", "xterm-ghostty", osc777, "Ghostty"},
	{"ITERM_SESSION_ID", "", osc9, "iTerm2"},
	{"LC_TERMINAL", "iTerm2", osc9, "iTerm2"},
	{"TERM_PROGRAM", "iTerm.app", osc9, "iTerm2"},
	{"WEZTERM_PANE", "", osc9, "WezTerm"},
	{"TERM_PROGRAM", "WezTerm", osc9, "WezTerm"},
	{"TERM", "foot*", osc777, "foot"},
	// Windows Terminal shows no OSC notification; its bell flashes the
	// taskbar.
	{"WT_SESSION", "", bell, "Windows Terminal"},
}

// Notifier makes the escape sequence that notifies the user. The zero
// value notifies nothing.
type Notifier struct {
	how      escape
	terminal string // the terminal detected, "" for none
	tmux     bool   // wrap desktop escapes for tmux's passthrough
}

// DetectNotifier decides, from the setting (NotifyOff, NotifyBell or
// NotifyDesktop; "" is NotifyDesktop) and the environment read by getenv,
// how to notify: off notifies nothing, bell rings the bell, and desktop
// uses the escape of the first terminal desktopTerminals recognises, else
// the bell. Inside tmux ($TMUX set) a desktop escape is wrapped in tmux's
// passthrough (DCS tmux; …), which tmux forwards to the terminal only with
// allow-passthrough on; the bell needs no wrapping.
func DetectNotifier(setting string, getenv func(string) string) Notifier {
	switch setting {
	case NotifyOff:
		return Notifier{}
	case NotifyBell:
		return Notifier{how: bell}
	}
	n := Notifier{how: bell, tmux: getenv("TMUX") != ""}
	for _, t := range desktopTerminals {
		v := getenv(t.env)
		prefix, isPrefix := strings.CutSuffix(t.value, "*")
		switch {
		case v == "":
			continue
		case isPrefix && !strings.HasPrefix(v, prefix):
			continue
		case !isPrefix && t.value != "" && v != t.value:
			continue
		}
		n.how, n.terminal = t.how, t.terminal
		return n
	}
	return n
}

// Enabled reports whether the notifier notifies at all: focus reporting is
// needed only then.
func (n Notifier) Enabled() bool { return n.how != none }

// Describe says how the notifier notifies, for the log and tests: "OSC 99
// (kitty) through tmux", "the bell", "off".
func (n Notifier) Describe() string {
	var s string
	switch n.how {
	case none:
		return "off"
	case bell:
		return "the bell"
	case osc9:
		s = "OSC 9"
	case osc777:
		s = "OSC 777"
	case osc99:
		s = "OSC 99"
	}
	s += " (" + n.terminal + ")"
	if n.tmux {
		s += " through tmux"
	}
	return s
}

// Sequence is the escape sequence that shows title and body; "" when the
// notifier is off. Both are cleaned of escapes and control characters
// first: the body may quote a provider's error.
func (n Notifier) Sequence(title, body string) string {
	title, body = oneLine(title), oneLine(body)
	var seq string
	switch n.how {
	case none:
		return ""
	case bell:
		return "\a"
	case osc9:
		seq = ansi.Notify(title + ": " + body)
	case osc777:
		// The fields are separated by semicolons.
		seq = ansi.URxvtExt("notify", strings.ReplaceAll(title, ";", ","), strings.ReplaceAll(body, ";", ","))
	case osc99:
		// d=0: more is to come (the body), under the same id.
		seq = ansi.DesktopNotification(title, "i=steer", "d=0") +
			ansi.DesktopNotification(body, "i=steer", "p=body")
	}
	if n.tmux {
		seq = ansi.TmuxPassthrough(seq)
	}
	return seq
}

// oneLine is s safe inside an OSC string, on one line.
func oneLine(s string) string {
	s = sanitize.String(s, sanitize.Options{})
	return strings.Join(strings.Fields(s), " ")
}
