package tui

import (
	"io"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/pasteread"
	"github.com/steer-tui/steer/tui/screen"
)

// framed is the model Run gives Bubble Tea, whose renderer is off
// (tea.WithoutRenderer): it hands each view of the root model to the
// screen, which draws frames only when something changed, and returns an
// empty view. It also passes on to the screen what Bubble Tea's renderer
// would have done: the terminal's size and the mouse modes the model asks
// for. Headless tests run Model itself, on Bubble Tea's renderer.
type framed struct {
	Model
	screen *screen.Screen
	// pastes, in and out are the terminal, for a process run with it
	// (handover.go).
	pastes *pasteread.Reader
	in     io.Reader
	out    io.Writer
}

// Update gives the screen the size and mode messages (the model sees them
// too) and runs the model.
func (f framed) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer f.restoreOnPanic()
	switch msg := msg.(type) {
	case msgs.RunProcessMsg:
		return f, startProcess(msg, f.screen, f.pastes, f.in, f.out)
	case msgs.EmitSequenceMsg:
		f.screen.Emit(msg.Seq)
		return f, nil
	case tea.WindowSizeMsg:
		f.screen.Resize(msg.Width, msg.Height)
	default:
		// The mode messages' types are Bubble Tea's own; comparing with
		// them is safe, as they are comparable.
		switch msg {
		case tea.EnableMouseCellMotion():
			f.screen.SetMouse(true)
		case tea.DisableMouse():
			f.screen.SetMouse(false)
		}
	}
	m, cmd := f.Model.Update(msg)
	f.Model = m.(Model)
	return f, cmd
}

// View draws the model's view; Bubble Tea, which draws nothing, gets "".
// Bubble Tea asks after every message, and once more when the program
// quits, which makes that view the last frame.
func (f framed) View() string {
	defer f.restoreOnPanic()
	f.screen.Draw(f.Model.View())
	return ""
}

// restoreOnPanic gives the terminal back before a panic goes on to Bubble
// Tea, which prints it: on the alternate screen the message would be lost.
func (f framed) restoreOnPanic() {
	if r := recover(); r != nil {
		_ = f.screen.Close(false)
		panic(r)
	}
}
