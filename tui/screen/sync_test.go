package screen

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// writes records each Write on its own: a frame must be one Write for its
// brackets to hold it whole.
type writes struct{ got []string }

func (w *writes) Write(p []byte) (int, error) {
	w.got = append(w.got, string(p))
	return len(p), nil
}

// TestSyncBracketsEveryFrame: with Sync each frame is one Write that
// begins and ends with the brackets of mode 2026, and a view that changes
// nothing writes no empty pair; without it no bracket is written at all.
func TestSyncBracketsEveryFrame(t *testing.T) {
	for _, sync := range []bool{true, false} {
		w := &writes{}
		clock := &screenClock{now: time.Unix(1000, 0)}
		s, err := Open(nil, w, Options{Interval: 16 * time.Millisecond, Clock: clock, Sync: sync})
		if err != nil {
			t.Fatal(err)
		}
		w.got = nil
		s.Resize(20, 5)
		for i, view := range []string{"a\nb", "a\nc", "a\nc\nd", "x"} {
			clock.advance(time.Second)
			s.Draw(view)
			if len(w.got) != i+1 {
				t.Fatalf("sync %v: view %d made %d writes in all, want one per frame: %q", sync, i, len(w.got), w.got)
			}
		}
		clock.advance(time.Second)
		s.Draw("x") // shown already
		if err := s.Close(false); err != nil {
			t.Fatal(err)
		}
		frames, closing := w.got[:4], w.got[4:]
		for _, f := range frames {
			wrapped := strings.HasPrefix(f, ansi.SetModeSynchronizedOutput) && strings.HasSuffix(f, ansi.ResetModeSynchronizedOutput) &&
				strings.Count(f, "2026") == 2
			if sync != wrapped {
				t.Errorf("sync %v: frame %q wrapped %v", sync, f, wrapped)
			}
			if !sync && strings.Contains(f, "2026") {
				t.Errorf("sync off: frame %q has a bracket", f)
			}
		}
		if len(closing) != 1 || strings.Contains(closing[0], "2026") {
			t.Errorf("sync %v: after the frames %q, want only Close's modes", sync, closing)
		}
	}
}

// TestReportFocusIsSetAndReset: focus reporting is on while the screen is
// open and off whenever another program has the terminal.
func TestReportFocusIsSetAndReset(t *testing.T) {
	tests := []struct {
		name  string
		focus bool
	}{{"asked", true}, {"not asked", false}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			s, err := Open(nil, &out, Options{Clock: &screenClock{}, ReportFocus: tt.focus})
			if err != nil {
				t.Fatal(err)
			}
			steps := []struct {
				name string
				do   func() error
				seq  string
			}{
				{"Open", func() error { return nil }, ansi.SetModeFocusEvent},
				{"Suspend", s.Suspend, ansi.ResetModeFocusEvent},
				{"Resume", s.Resume, ansi.SetModeFocusEvent},
				{"Close", func() error { return s.Close(false) }, ansi.ResetModeFocusEvent},
			}
			for _, st := range steps {
				if err := st.do(); err != nil {
					t.Fatal(err)
				}
				got := take(&out)
				if strings.Contains(got, st.seq) != tt.focus || (!tt.focus && strings.Contains(got, "1004")) {
					t.Errorf("%s wrote %q; focus reporting asked: %v", st.name, got, tt.focus)
				}
			}
		})
	}
}

// TestEmitWritesBetweenFrames: an emitted sequence is written as it is,
// and not once the screen is closed.
func TestEmitWritesBetweenFrames(t *testing.T) {
	s, out, _ := openScreen(t)
	s.Emit("\a")
	if got := take(out); got != "\a" {
		t.Errorf("Emit wrote %q", got)
	}
	_ = s.Close(false)
	take(out)
	s.Emit("\a")
	if out.Len() > 0 {
		t.Errorf("a closed screen emitted %q", out.String())
	}
}
