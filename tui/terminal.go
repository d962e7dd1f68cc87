package tui

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/charmbracelet/lipgloss"
	xterm "github.com/charmbracelet/x/term"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/keybind"
	"github.com/steer-tui/steer/tui/theme"
)

// ErrNoTerminal is RunTerminal's refusal to start without a terminal on
// stdin and stdout; main reports it as a usage error (exit status 2).
var ErrNoTerminal = errors.New("the terminal UI needs a terminal; use 'steer run PROMPT' or 'steer rpc' from scripts")

// TerminalOptions are what the command line and the configuration say about
// the terminal UI.
type TerminalOptions struct {
	// Theme is the --theme flag; "" leaves the choice to ConfigTheme.
	Theme string
	// ConfigTheme is the configuration's ui.theme; "" is auto.
	ConfigTheme string
	// ThemesDir holds the theme files (<config dir>/themes) a theme
	// setting other than a built-in names.
	ThemesDir string
	// KeyBindings is the user's key bindings file (<config dir>/
	// keybindings.json); "" or a missing file keeps the defaults.
	KeyBindings string
	// NothingToContinue says that --continue found no saved session in this
	// directory; the welcome then says that this session is a new one.
	NothingToContinue bool
	// Workspace, when set, is the other directory the resumed session
	// belongs to and works in; a note under its transcript says so.
	Workspace string
	// ModelNote, when set, says that the default model could not be used
	// and which fallback steer started on; a note under the transcript
	// says so.
	ModelNote string
	// Notifications is ui.notifications (off, bell, desktop; "" is
	// desktop) and NoSyncOutput is ui.syncOutput set to false
	// (termfeatures.go).
	Notifications string
	NoSyncOutput  bool
}

// RunTerminal runs the terminal UI (SPEC §9) on the process's terminal until
// the user quits or ctx is cancelled, as Run does. The theme is decided
// (a theme file read) and the key bindings read here, once, before the
// program owns the terminal: a bad theme file is an error, a problem with
// the key bindings a note under the transcript. Without a terminal it
// returns ErrNoTerminal and touches nothing.
func RunTerminal(ctx context.Context, rt *runner.Host, o TerminalOptions) error {
	if !xterm.IsTerminal(os.Stdin.Fd()) || !xterm.IsTerminal(os.Stdout.Fd()) {
		return ErrNoTerminal
	}
	stamp := stampOf(theme.Path(o.ThemesDir, themeSetting(o))) // before the read: a change during it is seen
	th, err := theme.Choose(themeSetting(o), o.ThemesDir, os.Getenv, theme.AskTerminal(theme.QueryTimeout))
	if err != nil {
		return err
	}
	lipgloss.SetHasDarkBackground(th.Base != theme.SettingLight)
	profile := terminalProfile()
	var keys keybind.User
	var keyProblems []string
	if o.KeyBindings != "" {
		keys, keyProblems = LoadKeyBindings(o.KeyBindings)
	}
	return Run(ctx, rt, Options{
		Theme:     th,
		ThemesDir: o.ThemesDir, themeStamp: stamp,
		Profile:  profile,
		Keys:     keys,
		Welcome:  welcome(rt.State().Model.Provider, o.NothingToContinue),
		Notice:   strings.TrimSpace(notice(o) + " " + strings.Join(keyProblems, " ")),
		Sessions: SessionsOf(rt),
		Mentions: rt,
		Exporter: rt,
		// The limit is the process's: every session's runtime has it.
		MaxInputBytes: rt.Current().MaxInputBytes(),
		Terminal:      terminalFeatures(o),
	})
}

// terminalProfile is the colours the terminal takes, as termenv reads them
// from TERM, COLORTERM and NO_COLOR, told to lipgloss. stdout is known to
// be a terminal here: termenv's own check would call it none wherever CI is
// set (dev containers, CI shells someone works in) and draw without colour.
func terminalProfile() termenv.Profile {
	p := termenv.NewOutput(os.Stdout, termenv.WithTTY(true)).EnvColorProfile()
	lipgloss.SetColorProfile(p)
	return p
}

// themeSetting is the theme the user asked for: --theme, else ui.theme.
func themeSetting(o TerminalOptions) string {
	if o.Theme != "" {
		return o.Theme
	}
	return o.ConfigTheme
}

// welcome is the note at the top of an empty transcript. Offline, on the
// scripted provider (whose default pace makes answers stream visibly), it
// suggests what to try.
func welcome(provider string, nothingToContinue bool) string {
	text := "Type a message and press Enter; keep typing while the agent works to steer it. " +
		"/help lists the keys and commands."
	if provider == "scripted" {
		text = "Offline on the scripted provider: no key needed. Try hello, list files, " +
			"read README.md, run sleep 5 (y lets it run; then type while it runs) or delegate count to three. " +
			"/help lists the keys and commands."
	}
	if nothingToContinue {
		text = "No saved session in this directory: this is a new one. " + text
	}
	return text
}

// notice is what the first session's transcript is told whatever it holds:
// the workspace it works in, the model steer started on.
func notice(o TerminalOptions) string {
	text := workspaceNotice(o.Workspace)
	if o.ModelNote != "" {
		text = strings.TrimSpace(text + " " + capitalise(o.ModelNote) + ".")
	}
	return text
}

// capitalise puts a note's first letter in upper case, to begin a sentence.
func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// workspaceNotice tells the user that the session resumed works in another
// directory than the one steer started in; "" when it does not.
func workspaceNotice(workspace string) string {
	if workspace == "" {
		return ""
	}
	return "This session belongs to " + workspace + ": the tools work there."
}
