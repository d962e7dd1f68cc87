package screen

import "github.com/charmbracelet/x/ansi"

// A frame is one Write (flush builds it whole in a buffer), so bracketing
// that Write with these makes a terminal that supports synchronized output
// (DEC mode 2026) show the frame at once: a fast stream never shows a
// half-drawn screen. Whether the terminal supports it is asked before the
// screen opens (tui/term.AskSync); a terminal that does not would ignore
// the brackets, but they are not sent to it.
const (
	syncBegin = ansi.SetModeSynchronizedOutput
	syncEnd   = ansi.ResetModeSynchronizedOutput
)
