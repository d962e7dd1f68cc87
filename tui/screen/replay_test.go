package screen

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// replayGrid is a terminal that understands what frames are made of (CUP,
// EL, ED below, ED all; other sequences are modes it ignores) and printable
// ASCII, one column each.
type replayGrid struct {
	rows       [][]byte
	row, col   int
	width      int
	overflowed bool // text written past the last column
}

func newReplayGrid(width, height int) *replayGrid {
	g := &replayGrid{width: width, rows: make([][]byte, height)}
	g.clear(0)
	return g
}

func (g *replayGrid) clear(from int) {
	for r := from; r < len(g.rows); r++ {
		g.rows[r] = bytes.Repeat([]byte{' '}, g.width)
	}
}

func (g *replayGrid) apply(t *testing.T, b []byte) {
	t.Helper()
	for len(b) > 0 {
		if b[0] != 0x1b {
			if g.col >= g.width {
				g.overflowed = true
			} else {
				g.rows[g.row][g.col] = b[0]
				g.col++
			}
			b = b[1:]
			continue
		}
		// CSI [?] params final
		end := 2
		for end < len(b) && (b[end] < 0x40 || b[end] > 0x7e) {
			end++
		}
		params, final := string(b[2:end]), b[end]
		b = b[end+1:]
		switch {
		case strings.HasPrefix(params, "?"):
		case final == 'H':
			n, _ := strconv.Atoi(strings.Split(params, ";")[0])
			g.row, g.col = max(n, 1)-1, 0
		case final == 'K':
			for c := g.col; c < g.width; c++ {
				g.rows[g.row][c] = ' '
			}
		case final == 'J' && params == "":
			g.clear(g.row)
		case final == 'J' && params == "2":
			g.clear(0)
		default:
			t.Fatalf("a sequence the replay does not know: CSI %q %c", params, final)
		}
	}
}

// want is view as the terminal should show it: its last height lines, each
// cut to the width and padded.
func (g *replayGrid) want(view string) []string {
	lines := strings.Split(view, "\n")
	if len(lines) > len(g.rows) {
		lines = lines[len(lines)-len(g.rows):]
	}
	out := make([]string, len(g.rows))
	for i := range out {
		line := ""
		if i < len(lines) {
			line = lines[i]
		}
		out[i] = (line + strings.Repeat(" ", g.width))[:g.width]
	}
	return out
}

func (g *replayGrid) shown() []string {
	out := make([]string, len(g.rows))
	for i, r := range g.rows {
		out[i] = string(r)
	}
	return out
}

// replayView is a random view: up to 12 lines of up to 30 letters, most of
// them from a few shared lines, so that frames share lines with the last.
func replayView(r *rand.Rand) string {
	lines := make([]string, r.IntN(12)+1)
	for i := range lines {
		if r.IntN(3) > 0 {
			lines[i] = strings.Repeat(string(rune('a'+i)), i*3)
			continue
		}
		lines[i] = strings.Repeat(string(rune('A'+r.IntN(26))), r.IntN(30))
	}
	return strings.Join(lines, "\n")
}

// TestFramesReproduceEveryView replays every frame on a grid and compares
// the grid with the view, over random views, bursts and resizes.
func TestFramesReproduceEveryView(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	s, out, clock := openScreen(t)
	width, height := 20, 8
	s.Resize(width, height)
	grid := newReplayGrid(width, height)
	for i := range 2000 {
		if r.IntN(50) == 0 {
			width, height = 5+r.IntN(30), 3+r.IntN(10)
			s.Resize(width, height)
			grid.apply(t, []byte(take(out)))
			// The terminal at its new size still holds something: the
			// next frame must clear it.
			grid = newReplayGrid(width, height)
			for r := range grid.rows {
				grid.rows[r] = bytes.Repeat([]byte{'#'}, width)
			}
		}
		view := replayView(r)
		clock.advance(time.Duration(r.IntN(20)) * time.Millisecond)
		s.Draw(view)
		if r.IntN(2) == 0 {
			clock.fire()
		}
		if clock.due != nil {
			continue // the view shows when its frame is due
		}
		grid.apply(t, []byte(take(out)))
		if grid.overflowed {
			t.Fatalf("view %d: a line was written past the width %d", i, width)
		}
		if got, want := grid.shown(), grid.want(view); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("view %d (%dx%d): the terminal shows\n%s\nwant\n%s", i, width, height,
				strings.Join(got, "|\n"), strings.Join(want, "|\n"))
		}
	}
}

// TestDrawFromManyGoroutines draws on the real clock from several
// goroutines (for -race) and checks that the last frame is the last view.
func TestDrawFromManyGoroutines(t *testing.T) {
	var out lockedBuffer
	s, err := Open(nil, &out, Options{Interval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	s.Resize(20, 4)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				s.Draw("goroutine " + strconv.Itoa(g) + "\nview " + strconv.Itoa(i))
			}
		}()
	}
	wg.Wait()
	s.Draw("the end")
	if err := s.Close(true); err != nil {
		t.Fatal(err)
	}
	grid := newReplayGrid(20, 4)
	grid.apply(t, out.Bytes())
	if got := strings.TrimSpace(grid.shown()[0]); got != "the end" {
		t.Errorf("the last frame shows %q, want the last view", got)
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.b.Bytes())
}
