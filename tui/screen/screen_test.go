package screen

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// screenClock is a fake clock: time moves only when the test says, and the
// frame scheduled runs only when the test fires it.
type screenClock struct {
	now     time.Time
	due     func()
	dueAt   time.Time
	stopped int
}

func (c *screenClock) Now() time.Time { return c.now }

func (c *screenClock) AfterFunc(d time.Duration, f func()) Timer {
	if c.due != nil {
		panic("a second frame scheduled while one is due")
	}
	c.due, c.dueAt = f, c.now.Add(d)
	return screenTimer{c}
}

type screenTimer struct{ c *screenClock }

func (t screenTimer) Stop() bool {
	t.c.due = nil
	t.c.stopped++
	return true
}

// advance moves the time on by d.
func (c *screenClock) advance(d time.Duration) { c.now = c.now.Add(d) }

// fire runs the frame due, at its time; false when none is due.
func (c *screenClock) fire() bool {
	if c.due == nil {
		return false
	}
	f := c.due
	c.due, c.now = nil, c.dueAt
	f()
	return true
}

// openScreen opens a screen on a buffer and a fake clock at 16 ms a frame,
// and forgets what Open wrote.
func openScreen(t *testing.T) (*Screen, *bytes.Buffer, *screenClock) {
	t.Helper()
	var out bytes.Buffer
	clock := &screenClock{now: time.Unix(1000, 0)}
	s, err := Open(nil, &out, Options{Interval: 16 * time.Millisecond, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	return s, &out, clock
}

// take returns what the screen wrote since the last take.
func take(out *bytes.Buffer) string {
	s := out.String()
	out.Reset()
	return s
}

func TestOpenAndCloseSetAndRestoreTheModes(t *testing.T) {
	var out bytes.Buffer
	s, err := Open(nil, &out, Options{Clock: &screenClock{}})
	if err != nil {
		t.Fatal(err)
	}
	opened := take(&out)
	for _, seq := range []string{ansi.SetAltScreenSaveCursorMode, ansi.HideCursor, ansi.SetBracketedPasteMode} {
		if !strings.Contains(opened, seq) {
			t.Errorf("Open wrote %q, without %q", opened, seq)
		}
	}
	if err := s.Close(false); err != nil {
		t.Fatal(err)
	}
	closed := take(&out)
	for _, seq := range []string{ansi.ResetAltScreenSaveCursorMode, ansi.ShowCursor, ansi.ResetBracketedPasteMode,
		ansi.ResetButtonEventMouseMode, ansi.ResetSgrExtMouseMode} {
		if !strings.Contains(closed, seq) {
			t.Errorf("Close wrote %q, without %q", closed, seq)
		}
	}
	if !strings.HasSuffix(closed, ansi.ResetAltScreenSaveCursorMode) {
		t.Errorf("Close wrote %q: the alternate screen is not left last", closed)
	}
	if err := s.Close(true); err != nil || out.Len() > 0 {
		t.Errorf("a second Close wrote %q, %v; want nothing", out.String(), err)
	}
	s.Draw("after")
	s.SetMouse(true)
	s.Resize(10, 10)
	if out.Len() > 0 {
		t.Errorf("a closed screen wrote %q", out.String())
	}
}

func TestMouseModes(t *testing.T) {
	s, out, _ := openScreen(t)
	s.SetMouse(true)
	if got, want := take(out), ansi.SetButtonEventMouseMode+ansi.SetSgrExtMouseMode; got != want {
		t.Errorf("mouse on wrote %q, want %q", got, want)
	}
	s.SetMouse(false)
	if got := take(out); got != mouseOff {
		t.Errorf("mouse off wrote %q, want %q", got, mouseOff)
	}
}

// TestFrames draws views one after another, each a frame interval after
// the last (so each is drawn at once), and checks the bytes of each frame.
func TestFrames(t *testing.T) {
	type step struct {
		view          string
		width, height int // a resize before the view, when width > 0
		want          string
	}
	const el, below, clear = ansi.EraseLineRight, ansi.EraseScreenBelow, ansi.EraseEntireScreen
	tests := []struct {
		name  string
		steps []step
	}{
		{"the first frame draws every line", []step{
			{view: "a\nb", want: "\x1b[1Ha" + el + "\x1b[2Hb" + el},
		}},
		{"only the lines that changed are rewritten", []step{
			{view: "a\nb\nc", want: "\x1b[1Ha" + el + "\x1b[2Hb" + el + "\x1b[3Hc" + el},
			{view: "a\nB\nc", want: "\x1b[2HB" + el},
			{view: "a\nB\nc", want: ""},
		}},
		{"a shorter view erases the rows below it", []step{
			{view: "a\nb\nc", want: "\x1b[1Ha" + el + "\x1b[2Hb" + el + "\x1b[3Hc" + el},
			{view: "a", want: "\x1b[2H" + below},
		}},
		{"a longer view adds its new lines", []step{
			{view: "a", want: "\x1b[1Ha" + el},
			{view: "a\nb", want: "\x1b[2Hb" + el},
		}},
		{"lines are cut to the width; a full line is not erased to its end", []step{
			{width: 4, height: 5, view: "abcdef\nabcd\nab\n日本語",
				want: clear + "\x1b[1Habcd\x1b[2Habcd\x1b[3Hab" + el + "\x1b[4H日本" + ""},
		}},
		{"a wide rune cut leaves a column to erase", []step{
			{width: 3, height: 5, view: "日本", want: clear + "\x1b[1H日" + el},
		}},
		{"styles survive the cut", []step{
			{width: 2, height: 5, view: "\x1b[1mbold\x1b[0m", want: clear + "\x1b[1H\x1b[1mbo\x1b[0m"},
		}},
		{"a view taller than the terminal shows its last lines", []step{
			{width: 10, height: 2, view: "a\nb\nc", want: clear + "\x1b[1Hb" + el + "\x1b[2Hc" + el},
		}},
		{"a resize clears the terminal and draws every line again", []step{
			{view: "a\nb", want: "\x1b[1Ha" + el + "\x1b[2Hb" + el},
			{width: 10, height: 5, view: "a\nb", want: clear + "\x1b[1Ha" + el + "\x1b[2Hb" + el},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, out, clock := openScreen(t)
			for i, st := range tt.steps {
				clock.advance(time.Second)
				if st.width > 0 {
					s.Resize(st.width, st.height)
				}
				s.Draw(st.view)
				if clock.fire() {
					t.Fatalf("step %d: a frame was scheduled although the last one is old", i)
				}
				if got := take(out); got != st.want {
					t.Errorf("step %d: the frame\n got %q\nwant %q", i, got, st.want)
				}
			}
		})
	}
}
