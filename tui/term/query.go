package term

import (
	"bytes"
	"os"
	"time"

	xterm "github.com/charmbracelet/x/term"
)

// deviceAttributes (DA1) is the question every terminal answers; asked last,
// its answer ends the wait for the answers before it, which a terminal that
// does not know a question never sends.
const deviceAttributes = "\x1b[c"

// Ask writes question to the terminal tty, followed by DA1, and returns what
// the terminal answered until its DA1 answer or until timeout, whichever
// comes first. It reads on this goroutine with a deadline, in raw mode
// restored before it returns, so nothing is left reading the terminal
// afterwards: the program must get every key. Keys typed meanwhile are
// lost; an answer that comes after the timeout reaches the program, whose
// key ladder drops it. ok is false when tty cannot be read with a deadline
// (then nothing is asked) or cannot be written.
func Ask(tty *os.File, question string, timeout time.Duration) (answer []byte, ok bool) {
	if err := tty.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		return nil, false // not pollable: a read could block for ever
	}
	defer tty.SetReadDeadline(time.Time{})
	raw, err := tty.SyscallConn()
	if err != nil {
		return nil, false
	}
	var state *xterm.State
	var rawErr error
	if err := raw.Control(func(fd uintptr) { state, rawErr = xterm.MakeRaw(fd) }); err != nil || rawErr != nil {
		return nil, false
	}
	defer raw.Control(func(fd uintptr) { _ = xterm.Restore(fd, state) })

	if _, err := tty.Write([]byte(question + deviceAttributes)); err != nil {
		return nil, false
	}
	var got []byte
	buf := make([]byte, 256)
	for !answered(got) {
		n, err := tty.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			break
		}
	}
	return got, true
}

// answered reports whether b holds the DA1 answer ("ESC [ ? … c"), the
// last one to come.
func answered(b []byte) bool {
	i := bytes.Index(b, []byte("\x1b[?"))
	for i >= 0 {
		rest := b[i+3:]
		j := 0
		for j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || rest[j] == ';') {
			j++
		}
		if j < len(rest) && rest[j] == 'c' {
			return true
		}
		next := bytes.Index(rest, []byte("\x1b[?"))
		if next < 0 {
			return false
		}
		i += 3 + next
	}
	return false
}

// AskTTY opens the controlling terminal (/dev/tty) and asks it question
// (Ask); ok is false when there is no controlling terminal.
func AskTTY(question string, timeout time.Duration) ([]byte, bool) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, false
	}
	defer tty.Close()
	return Ask(tty, question, timeout)
}
