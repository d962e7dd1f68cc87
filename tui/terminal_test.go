package tui

import (
	"strings"
	"testing"

	"github.com/steer-tui/steer/tui/theme"
)

func TestPickTheme(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	t.Setenv("COLORFGBG", "15;0") // a dark terminal
	for setting, want := range map[string]string{"dark": theme.Dark().Name, "light": theme.Light().Name, "auto": theme.Dark().Name} {
		if got := pickTheme(setting).Name; got != want {
			t.Errorf("pickTheme(%q) = %q, want %q", setting, got, want)
		}
	}
	t.Setenv("NO_COLOR", "1")
	if got := pickTheme("light").Name; got != theme.Plain().Name {
		t.Errorf("light under NO_COLOR = %q", got)
	}
}

func TestThemeSetting(t *testing.T) {
	if got := themeSetting(TerminalOptions{ConfigTheme: "light"}); got != "light" {
		t.Errorf("config only: %q", got)
	}
	if got := themeSetting(TerminalOptions{Theme: "dark", ConfigTheme: "light"}); got != "dark" {
		t.Errorf("the flag wins: %q", got)
	}
}

func TestWelcome(t *testing.T) {
	if got := welcome("scripted", false, ""); !strings.HasPrefix(got, "Offline on the scripted provider") {
		t.Errorf("scripted: %q", got)
	}
	if got := welcome("anthropic", false, ""); !strings.HasPrefix(got, "Type a message") || strings.Contains(got, "Offline") {
		t.Errorf("a real provider: %q", got)
	}
	if got := welcome("anthropic", true, ""); !strings.HasPrefix(got, "No saved session in this directory: this is a new one. Type a message") {
		t.Errorf("nothing to continue: %q", got)
	}
	if got := welcome("anthropic", false, "/src/other"); !strings.HasPrefix(got, "This session belongs to /src/other: the tools work there.") {
		t.Errorf("a session of another workspace: %q", got)
	}
}
