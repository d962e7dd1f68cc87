package tui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/tui/screen"
	"github.com/steer-tui/steer/tui/theme"
)

// framedOn is the model Run gives Bubble Tea, drawing on a buffer.
func framedOn(t *testing.T) (framed, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	scr, err := screen.Open(nil, &out, screen.Options{Clock: &framedClock{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = scr.Close(false) })
	m := New(newRuntime(t, nil), Options{Theme: theme.Plain(), Profile: termenv.Ascii})
	out.Reset()
	return framed{Model: m, screen: scr}, &out
}

// framedClock is a clock on which every view comes a second after the
// last: each is drawn at once, and no frame is ever scheduled.
type framedClock struct{ now time.Time }

func (c *framedClock) Now() time.Time {
	c.now = c.now.Add(time.Second)
	return c.now
}

func (c *framedClock) AfterFunc(time.Duration, func()) screen.Timer {
	panic("a frame was scheduled on a clock where every view comes late")
}

// TestFramedPassesModesAndSizesToTheScreen: with Bubble Tea's renderer off,
// the mouse modes the model asks for and the terminal's size reach the
// screen, and the model's view is drawn there while Bubble Tea gets none.
func TestFramedPassesModesAndSizesToTheScreen(t *testing.T) {
	f, out := framedOn(t)
	tests := []struct {
		name string
		msg  tea.Msg
		want string
	}{
		{"mouse on", tea.EnableMouseCellMotion(), ansi.SetButtonEventMouseMode},
		{"mouse off", tea.DisableMouse(), ansi.ResetButtonEventMouseMode},
		{"a resize repaints", tea.WindowSizeMsg{Width: 50, Height: 12}, ansi.EraseEntireScreen},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next, _ := f.Update(tt.msg)
			f = next.(framed)
			if view := f.View(); view != "" {
				t.Errorf("Bubble Tea got a view: %q", view)
			}
			if got := out.String(); !strings.Contains(got, tt.want) {
				t.Errorf("the screen got %q, want %q in it", got, tt.want)
			}
			out.Reset()
		})
	}
	if f.width != 50 || f.height != 12 {
		t.Errorf("the model's size: %dx%d, want the resize's 50x12", f.width, f.height)
	}
}

// TestFramedRestoresTheTerminalOnPanic: a panic in the model leaves the
// alternate screen before Bubble Tea prints it.
func TestFramedRestoresTheTerminalOnPanic(t *testing.T) {
	f, out := framedOn(t)
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("the panic that went on: %v, want boom", r)
			}
		}()
		defer f.restoreOnPanic()
		panic("boom")
	}()
	if got := out.String(); !strings.HasSuffix(got, ansi.ResetAltScreenSaveCursorMode) {
		t.Errorf("after the panic the screen got %q, want the alternate screen left", got)
	}
}
