package tui

import (
	"os"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func TestMain(m *testing.M) {
	// Views are compared as plain text: no colours, a fixed background.
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

// epoch is the time the fixed clock reads.
var epoch = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

func fixedClock() time.Time { return epoch }
