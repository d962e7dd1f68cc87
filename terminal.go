package main

import (
	"context"
	"fmt"
	"os"

	"github.com/charmbracelet/lipgloss"
	xterm "github.com/charmbracelet/x/term"

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

// pickTheme turns the theme setting (--theme, else ui.theme; checked
// already) into a theme: theme.Detect, whose auto asks the terminal for at
// most theme.QueryTimeout.
func pickTheme(setting string) theme.Theme {
	th, err := theme.Detect(setting, os.Getenv, theme.AskTerminal(theme.QueryTimeout))
	if err != nil {
		return theme.Dark() // parseArgs and config.ParseTheme let no other setting through
	}
	return th
}
