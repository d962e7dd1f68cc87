package msgs

import (
	"os/exec"

	tea "github.com/charmbracelet/bubbletea"
)

// RunProcessMsg asks to hand the terminal to Cmd (an external editor) until
// it ends, then to deliver the message Done makes of its error. Cmd is
// built in a tea.Cmd (exec.Command looks the program up); whoever owns the
// terminal connects its standard streams.
type RunProcessMsg struct {
	Cmd  *exec.Cmd
	Done func(error) tea.Msg
}
