package screen

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// TestSuspendAndResume: a suspended screen gives the modes back and draws
// nothing; Resume sets them again, the mouse too, and draws the latest
// view whole.
func TestSuspendAndResume(t *testing.T) {
	s, out, clock := openScreen(t)
	s.Resize(20, 3)
	s.Draw("one\ntwo")
	s.SetMouse(true)
	take(out)
	if err := s.Suspend(); err != nil {
		t.Fatal(err)
	}
	if got := take(out); !strings.HasSuffix(got, ansi.ResetAltScreenSaveCursorMode) || !strings.Contains(got, mouseOff) {
		t.Errorf("Suspend wrote %q", got)
	}
	clock.advance(time.Second)
	s.Draw("one\nthree")
	s.SetMouse(true)
	if clock.fire() || out.Len() > 0 {
		t.Errorf("a suspended screen wrote %q", out.String())
	}
	if err := s.Resume(); err != nil {
		t.Fatal(err)
	}
	got := take(out)
	for _, seq := range []string{ansi.SetAltScreenSaveCursorMode, ansi.HideCursor, ansi.SetBracketedPasteMode,
		ansi.SetButtonEventMouseMode, "one", "three"} {
		if !strings.Contains(got, seq) {
			t.Errorf("Resume wrote %q, without %q", got, seq)
		}
	}
	if err := s.Resume(); err != nil || out.Len() > 0 {
		t.Errorf("a second Resume wrote %q, %v", out.String(), err)
	}
}
