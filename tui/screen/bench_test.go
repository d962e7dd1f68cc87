package screen

import (
	"io"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkScreenFrame is one streaming frame on a 160×45 terminal: the
// transcript's last line and the status line changed, the other 43 lines
// (styled, as the TUI draws them) are as before.
func BenchmarkScreenFrame(b *testing.B) {
	clock := &screenClock{now: time.Unix(1000, 0)}
	s, err := Open(nil, io.Discard, Options{Clock: clock})
	if err != nil {
		b.Fatal(err)
	}
	s.Resize(160, 45)
	lines := make([]string, 45)
	for i := range lines {
		lines[i] = "\x1b[38;2;200;200;200m  " + strings.Repeat("streamed words ", 9) + "\x1b[0m"
	}
	views := make([]string, 2)
	for v := range views {
		lines[40] = "\x1b[1m  the tail of the answer, " + strconv.Itoa(v) + "\x1b[0m"
		lines[43] = "scripted/echo · working " + strconv.Itoa(v) + "s"
		views[v] = strings.Join(lines, "\n")
	}
	s.Draw(views[1])
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		clock.advance(DefaultInterval)
		s.Draw(views[i%2])
	}
}
