package screen

import (
	"strings"
	"testing"
	"time"
)

func TestAViewAfterAQuietSpellIsDrawnAtOnce(t *testing.T) {
	s, out, clock := openScreen(t)
	s.Draw("a")
	if got := take(out); got == "" {
		t.Fatal("the first view was not drawn at once")
	}
	clock.advance(16 * time.Millisecond)
	s.Draw("b")
	if got := take(out); !strings.Contains(got, "b") {
		t.Fatalf("a view a frame interval after the last frame: wrote %q, want it drawn at once", got)
	}
	if clock.due != nil {
		t.Fatal("a frame is scheduled though every view was drawn")
	}
}

// TestABurstOfViewsIsOneFrame: views that come faster than the frame rate
// are drawn once, the latest of them, when the interval since the last
// frame ends.
func TestABurstOfViewsIsOneFrame(t *testing.T) {
	s, out, clock := openScreen(t)
	s.Draw("0")
	take(out)
	start := clock.now
	for _, v := range []string{"1", "2", "3"} {
		clock.advance(time.Millisecond)
		s.Draw(v) // the fake clock fails on a second timer
		if got := take(out); got != "" {
			t.Fatalf("view %s was drawn at once (%q), %v after the last frame", v, got, clock.now.Sub(start))
		}
	}
	if clock.due == nil {
		t.Fatal("no frame scheduled for the burst")
	}
	if got, want := clock.dueAt.Sub(start), 16*time.Millisecond; got != want {
		t.Errorf("the frame is due %v after the last one, want %v", got, want)
	}
	clock.fire()
	if got, want := take(out), "\x1b[1H3\x1b[K"; got != want {
		t.Errorf("the burst's frame: %q, want %q (the latest view only)", got, want)
	}
	// A view right after that frame waits for the next interval again.
	clock.advance(time.Millisecond)
	s.Draw("4")
	if got := take(out); got != "" || clock.due == nil {
		t.Fatalf("a view 1 ms after a frame: wrote %q, due %v; want it scheduled", got, clock.due != nil)
	}
	clock.fire()
	if got := take(out); !strings.Contains(got, "4") {
		t.Errorf("the next frame: %q", got)
	}
}

// TestNothingChangedSchedulesNothing: an idle screen sets no timer, and a
// burst that ends where it started writes nothing.
func TestNothingChangedSchedulesNothing(t *testing.T) {
	s, out, clock := openScreen(t)
	s.Draw("same")
	take(out)
	for range 3 {
		clock.advance(time.Millisecond)
		s.Draw("same")
	}
	if clock.due != nil || out.Len() > 0 {
		t.Fatalf("the same view again: due %v, wrote %q; want nothing", clock.due != nil, out.String())
	}
	s.Draw("other")
	s.Draw("same")
	clock.fire()
	if got := take(out); got != "" {
		t.Errorf("a burst back to the view shown wrote %q, want nothing", got)
	}
	if clock.due != nil {
		t.Error("a frame is still scheduled after the burst's")
	}
}

func TestResizeRedrawsTheSameView(t *testing.T) {
	s, out, clock := openScreen(t)
	s.Draw("a")
	take(out)
	clock.advance(time.Second)
	s.Resize(20, 5)
	if got := take(out); got != "" {
		t.Fatalf("Resize drew %q before the view for the new size", got)
	}
	s.Draw("a")
	if got, want := take(out), "\x1b[2J\x1b[1Ha\x1b[K"; got != want {
		t.Errorf("the view after a resize: %q, want %q", got, want)
	}
}

func TestCloseDrawsTheLastFrameOnlyWhenAsked(t *testing.T) {
	for _, final := range []bool{true, false} {
		s, out, clock := openScreen(t)
		s.Draw("first")
		clock.advance(time.Millisecond)
		s.Draw("last")
		take(out)
		if err := s.Close(final); err != nil {
			t.Fatal(err)
		}
		if clock.due != nil || clock.stopped != 1 {
			t.Errorf("final=%v: the frame due was not stopped", final)
		}
		got := take(out)
		if drew := strings.Contains(got, "last"); drew != final {
			t.Errorf("final=%v: Close wrote %q", final, got)
		}
		if final && strings.Index(got, "last") > strings.Index(got, "\x1b[?1049l") {
			t.Errorf("the last frame came after the alternate screen was left: %q", got)
		}
	}
}

// TestAFrameDueAfterCloseDrawsNothing: a frame whose timer fired while
// Close ran finds the screen closed.
func TestAFrameDueAfterCloseDrawsNothing(t *testing.T) {
	s, out, clock := openScreen(t)
	s.Draw("first")
	clock.advance(time.Millisecond)
	s.Draw("late")
	due := clock.due
	if err := s.Close(false); err != nil {
		t.Fatal(err)
	}
	take(out)
	due()
	if out.Len() > 0 {
		t.Errorf("a frame after Close wrote %q", out.String())
	}
}
