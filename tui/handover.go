package tui

import (
	"io"
	"os"
	"os/exec"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/pasteread"
	"github.com/steer-tui/steer/tui/screen"
)

// handover runs a process with the terminal (msgs.RunProcessMsg) for the
// framed program, whose screen and paste reader hold the terminal where
// Bubble Tea's renderer would: Bubble Tea releases what it knows of the
// terminal around Run, the screen and the reader must let go too.
//
//   - The paste reader's blocked read is cancelled before Bubble Tea
//     releases the terminal (in Update), so that its read loop ends at once
//     and no key typed into the process is read here; the loop Bubble Tea
//     starts afterwards reads again.
//   - Inside Run, after Bubble Tea let go: the screen leaves the alternate
//     screen and raw mode, the process runs on the terminal's own files,
//     and the screen comes back and draws everything again.
type handover struct {
	cmd    *exec.Cmd
	screen *screen.Screen
	in     io.Reader
	out    io.Writer
}

// startProcess is framed's answer to a RunProcessMsg.
func startProcess(msg msgs.RunProcessMsg, scr *screen.Screen, pastes *pasteread.Reader, in io.Reader, out io.Writer) tea.Cmd {
	pastes.Suspend()
	return tea.Exec(handover{cmd: msg.Cmd, screen: scr, in: in, out: out}, msg.Done)
}

// Run hands the terminal over for the process's run.
func (h handover) Run() error {
	if err := h.screen.Suspend(); err != nil {
		return err
	}
	defer h.screen.Resume() //nolint:errcheck // the program goes on either way; its next frames show
	return h.cmd.Run()
}

// SetStdin gives the process the terminal's own file, not the reader
// Bubble Tea reads (copying from it would hold up the process's end); an
// input that is no file (tests) is Bubble Tea's.
func (h handover) SetStdin(r io.Reader) {
	if f, ok := h.in.(*os.File); ok {
		r = f
	}
	if h.cmd.Stdin == nil {
		h.cmd.Stdin = r
	}
}

// SetStdout is SetStdin's counterpart for the output.
func (h handover) SetStdout(w io.Writer) {
	if f, ok := h.out.(*os.File); ok {
		w = f
	}
	if h.cmd.Stdout == nil {
		h.cmd.Stdout = w
	}
}

// SetStderr takes Bubble Tea's (the process's own stderr).
func (h handover) SetStderr(w io.Writer) {
	if h.cmd.Stderr == nil {
		h.cmd.Stderr = w
	}
}
