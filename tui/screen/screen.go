// Package screen draws the TUI's frames on the terminal, on demand. Bubble
// Tea v1's own renderer wakes up 60 times a second for the program's whole
// life, changed or not (~1 % CPU while idle); a Screen writes a frame only
// when the view changed: at once when it has been quiet for a frame
// interval, otherwise once at the end of that interval with the latest view
// (a burst of views while streaming costs one frame), and it sets no timer
// and starts no goroutine while nothing changes.
//
// A Screen owns the terminal while the TUI runs: raw input, the alternate
// screen, the hidden cursor, bracketed paste and mouse reporting, and it
// gives all of them back on Close. Each frame rewrites only the lines that
// differ from the last one, each cut to the terminal's width.
//
// It knows nothing of Bubble Tea: tui hands it each view and the modes the
// program asks for.
package screen

import (
	"bytes"
	"io"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// DefaultInterval is the shortest time between two frames: 60 frames a
// second, Bubble Tea's default.
const DefaultInterval = time.Second / 60

// Options configure a Screen; the zero value is the real clock at
// DefaultInterval.
type Options struct {
	// Interval is the shortest time between two frames.
	Interval time.Duration
	// Clock schedules the frames; nil is the real clock.
	Clock Clock
	// Sync wraps each frame in the brackets of synchronized output (DEC
	// mode 2026, sync.go), for a terminal that said it supports them.
	Sync bool
	// ReportFocus asks the terminal to report focus changes (mode 1004),
	// which Bubble Tea delivers as tea.FocusMsg and tea.BlurMsg.
	ReportFocus bool
}

// Screen is the terminal a program draws on. Its methods may be called from
// any goroutine; frames are written from the caller's goroutine or the
// clock's.
type Screen struct {
	out      io.Writer
	clock    Clock
	interval time.Duration
	input    *rawInput // nil when the input is no terminal
	sync     bool      // bracket each frame (Options.Sync)
	modes    string    // the modes Open sets beyond the fixed ones, and Close resets
	unmodes  string

	mu     sync.Mutex
	frame  frame     // what the terminal shows, and its size
	view   string    // the latest view
	dirty  bool      // the view or the size changed since the last frame
	last   time.Time // when the last frame was written
	timer  Timer     // the frame due, nil when none is
	closed bool
	// suspended says another program has the terminal (handover.go):
	// views are kept, not drawn; mouse is whether reporting is on.
	suspended, mouse bool
	buf              bytes.Buffer // the frame being made, kept for its capacity
}

// Open takes over the terminal: in, if it is a terminal, is put in raw mode,
// and out shows the alternate screen with the cursor hidden and bracketed
// paste on. Close gives it all back.
func Open(in io.Reader, out io.Writer, o Options) (*Screen, error) {
	raw, err := makeRaw(in)
	if err != nil {
		return nil, err
	}
	s := &Screen{out: out, clock: o.Clock, interval: o.Interval, input: raw, sync: o.Sync}
	if o.ReportFocus {
		s.modes, s.unmodes = ansi.SetModeFocusEvent, ansi.ResetModeFocusEvent
	}
	if s.clock == nil {
		s.clock = realClock{}
	}
	if s.interval <= 0 {
		s.interval = DefaultInterval
	}
	s.write(ansi.SetAltScreenSaveCursorMode + ansi.EraseEntireScreen + ansi.CursorHomePosition +
		ansi.HideCursor + ansi.SetBracketedPasteMode + s.modes)
	return s, nil
}

// Draw makes view the screen's content. It is shown at once when the last
// frame is at least an interval old, else when the interval ends, unless a
// newer view replaces it first. A view the terminal already shows costs
// nothing.
func (s *Screen) Draw(view string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || (view == s.view && !s.dirty) {
		return // shown already
	}
	s.view, s.dirty = view, true
	if !s.suspended {
		s.schedule()
	}
}

// Resize tells the screen the terminal's new size (0 for unknown: no
// cutting). The next Draw, even of the same view, clears the terminal and
// draws every line: the view drawn for the new size comes right after a
// resize, and one frame is enough.
func (s *Screen) Resize(width, height int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.frame.resize(width, height)
	s.dirty = true
}

// SetMouse turns mouse reporting (button presses, the wheel, motion while a
// button is held) on or off.
func (s *Screen) SetMouse(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.mouse = on
	if s.suspended {
		return // Resume turns it on
	}
	if on {
		s.write(ansi.SetButtonEventMouseMode + ansi.SetSgrExtMouseMode)
		return
	}
	s.write(mouseOff)
}

// mouseOff turns off every mouse mode, as Bubble Tea's DisableMouse does.
const mouseOff = ansi.ResetButtonEventMouseMode + ansi.ResetAnyEventMouseMode + ansi.ResetSgrExtMouseMode

// Close gives the terminal back: bracketed paste and the mouse off, the
// cursor shown, the alternate screen left and the input's mode restored.
// With final set, the latest view is drawn first if it is not shown yet
// (a program that quits shows its last frame; one that is killed does not).
// Only the first call does anything; later ones return nil.
func (s *Screen) Close(final bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	if final && s.dirty {
		s.flush()
	}
	s.closed = true
	s.write(s.unmodes + ansi.ResetBracketedPasteMode + ansi.ShowCursor + mouseOff + ansi.ResetAltScreenSaveCursorMode)
	return s.input.restore()
}

// schedule draws the view now or makes sure a frame is due; s.mu is held.
func (s *Screen) schedule() {
	if s.timer != nil {
		return // the frame due draws the latest view
	}
	wait := s.interval - s.clock.Now().Sub(s.last)
	if wait <= 0 {
		s.flush()
		return
	}
	s.timer = s.clock.AfterFunc(wait, s.frameDue)
}

// frameDue draws the frame a burst of views ended with. It runs on the
// clock's goroutine: a panic there would end the process with the terminal
// still raw, so it gives the terminal back first.
func (s *Screen) frameDue() {
	defer func() {
		if r := recover(); r != nil {
			_ = s.Close(false)
			panic(r)
		}
	}()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.timer = nil
	if s.closed || s.suspended || !s.dirty {
		return
	}
	s.flush()
}

// flush writes the frame that turns what the terminal shows into the
// latest view; s.mu is held.
func (s *Screen) flush() {
	s.buf.Reset()
	if s.sync {
		s.buf.WriteString(syncBegin)
	}
	begun := s.buf.Len()
	s.frame.update(&s.buf, s.view)
	s.dirty = false
	s.last = s.clock.Now()
	if s.buf.Len() == begun {
		return // nothing changed on screen
	}
	if s.sync {
		s.buf.WriteString(syncEnd)
	}
	_, _ = s.out.Write(s.buf.Bytes())
}

// Emit writes seq (a notification, a clipboard sequence) between frames,
// never inside one; nothing once the screen is closed.
func (s *Screen) Emit(seq string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.write(seq)
	}
}

// write sends control sequences; s.mu is held or s is not shared yet. A
// failed write is not reported: the terminal is gone, and nothing can be
// drawn anyway.
func (s *Screen) write(seq string) { _, _ = io.WriteString(s.out, seq) }
