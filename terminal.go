package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/charmbracelet/lipgloss"
	xterm "github.com/charmbracelet/x/term"

	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/tui"
	"github.com/steer-tui/steer/tui/theme"
)

// runTUI runs the terminal UI (SPEC §9) until the user quits or a signal
// cancels ctx. The theme is decided here, once, before the program owns the
// terminal. The scripted provider keeps --pace, whose default
// (scripted.DefaultPace) makes answers stream visibly.
func runTUI(ctx context.Context, a *app, themeSetting string) int {
	if !xterm.IsTerminal(os.Stdin.Fd()) || !xterm.IsTerminal(os.Stdout.Fd()) {
		fmt.Fprintln(os.Stderr, "steer: the terminal UI needs a terminal; use 'steer run PROMPT' or 'steer rpc' from scripts")
		return exitUsage
	}
	th := pickTheme(themeSetting)
	lipgloss.SetHasDarkBackground(th.Name != "light")
	welcome := "Type a message and press Enter; keep typing while the agent works to steer it. " +
		"/help lists the keys and commands."
	if a.rt.State().Model.Provider == "scripted" {
		welcome = "Offline on the scripted provider: no key needed. Try hello, list files, " +
			"read README.md or run sleep 5 (and type while it runs). /help lists the keys and commands."
	}
	if a.continued != "" {
		welcome = "No saved session in this directory: this is a new one. " + welcome
	}
	err := tui.Run(ctx, a.rt, tui.Options{
		Theme: th, Profile: lipgloss.ColorProfile(), Welcome: welcome, Sessions: tui.SessionsOf(a.rt),
	})
	switch {
	case ctx.Err() != nil:
		return exitCancelled
	case err != nil:
		fmt.Fprintf(os.Stderr, "steer: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// pickTheme turns the theme setting (--theme, else ui.theme) into a theme:
// dark and light are what they say. auto — the detection that tui/theme
// will own, bounded, replacing the body of the auto case — gives the plain
// theme under NO_COLOR, trusts COLORFGBG when it is set, and only otherwise
// asks the terminal (lipgloss.HasDarkBackground).
func pickTheme(setting string) theme.Theme {
	switch setting {
	case config.ThemeDark:
		return theme.Dark()
	case config.ThemeLight:
		return theme.Light()
	}
	switch dark, known := colorFGBGDark(os.Getenv("COLORFGBG")); {
	case os.Getenv("NO_COLOR") != "":
		return theme.Plain()
	case known && !dark, !known && !lipgloss.HasDarkBackground():
		return theme.Light()
	}
	return theme.Dark()
}

// colorFGBGDark reads COLORFGBG ("15;0": foreground;background): a
// background of 0–6 or 8 is dark. known is false when the variable is unset
// or unreadable.
func colorFGBGDark(v string) (dark, known bool) {
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
