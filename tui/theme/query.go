package theme

import (
	"bytes"
	"os"
	"strconv"
	"time"

	"github.com/steer-tui/steer/tui/term"
)

// AskTerminal returns an Ask that asks the controlling terminal
// (/dev/tty) for its background colour and waits at most timeout for the
// answer. Nothing is left reading the terminal afterwards: Bubble Tea must
// get every key. Where /dev/tty cannot be read with a deadline, it asks
// nothing.
func AskTerminal(timeout time.Duration) Ask {
	return func() (bool, bool) {
		tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		if err != nil {
			return false, false
		}
		defer tty.Close()
		return QueryBackground(tty, timeout)
	}
}

// QueryBackground asks the terminal on tty for its background colour (OSC
// 11), followed by a device-attributes query (DA1) that every terminal
// answers, in order, so that its answer ends the wait early when OSC 11 got
// none. It reads with a deadline on this goroutine, in raw mode restored
// before it returns, and gives up after timeout. Keys typed meanwhile are
// lost. An answer that comes later reaches the program, whose key ladder
// drops it.
func QueryBackground(tty *os.File, timeout time.Duration) (dark, ok bool) {
	got, ok := term.Ask(tty, "\x1b]11;?\x1b\\", timeout)
	if !ok {
		return false, false
	}
	return parseBackground(got)
}

// parseBackground finds the OSC 11 answer in b ("ESC ] 11;rgb:1c1c/1c1c/1c1c"
// ended by BEL or ST) and says whether the colour is dark: an HSL lightness
// under one half, as termenv decides.
func parseBackground(b []byte) (dark, ok bool) {
	i := bytes.Index(b, []byte("\x1b]11;"))
	if i < 0 {
		return false, false
	}
	body := b[i+5:]
	if end := bytes.IndexAny(body, "\x07\x1b"); end >= 0 {
		body = body[:end]
	} else {
		return false, false
	}
	spec := string(body)
	var comps string
	switch {
	case len(spec) > 4 && spec[:4] == "rgb:":
		comps = spec[4:]
	case len(spec) > 5 && spec[:5] == "rgba:":
		comps = spec[5:]
	default:
		return false, false
	}
	parts := bytes.Split([]byte(comps), []byte("/"))
	if len(parts) < 3 {
		return false, false
	}
	var rgb [3]float64
	for j := 0; j < 3; j++ {
		p := parts[j]
		if len(p) == 0 || len(p) > 4 {
			return false, false
		}
		v, err := strconv.ParseUint(string(p), 16, 16)
		if err != nil {
			return false, false
		}
		rgb[j] = float64(v) / float64(uint64(1)<<(4*len(p))-1)
	}
	hi := max(rgb[0], rgb[1], rgb[2])
	lo := min(rgb[0], rgb[1], rgb[2])
	return (hi+lo)/2 < 0.5, true
}
