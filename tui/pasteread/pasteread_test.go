package pasteread

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// chunked reads src n bytes at a time, as a terminal hands input over.
type chunked struct {
	src []byte
	n   int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.src) == 0 {
		return 0, io.EOF
	}
	k := min(c.n, len(p), len(c.src))
	copy(p, c.src[:k])
	c.src = c.src[k:]
	return k, nil
}

// event is what the program would see: bytes read, or a paste.
type event struct {
	bytes, paste string
}

// readAll reads r to its end in 256-byte reads, as Bubble Tea does, and
// returns the bytes and pastes in the order they came, merging runs of bytes.
func readAll(t *testing.T, src io.Reader) []event {
	t.Helper()
	var evs []event
	var pending []byte // bytes read since the last paste
	flush := func() {
		if len(pending) > 0 {
			evs = append(evs, event{bytes: string(pending)})
			pending = nil
		}
	}
	r, err := New(src, func(msg tea.Msg) {
		flush()
		evs = append(evs, event{paste: string(msg.(tea.KeyMsg).Runes)})
	})
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 256)
	for {
		n, err := r.Read(buf)
		pending = append(pending, buf[:n]...)
		if err != nil {
			flush()
			return evs
		}
	}
}

func TestPastesInOrder(t *testing.T) {
	big := strings.Repeat("line of a log\n", 20000)
	tests := []struct {
		name  string
		input string
		want  []event
	}{
		{"keys only", "hello\r", []event{{bytes: "hello\r"}}},
		{"a paste between keys", "ab\x1b[200~pasted\ntext\x1b[201~cd",
			[]event{{bytes: "ab"}, {paste: "pasted\ntext"}, {bytes: "cd"}}},
		{"two pastes", "\x1b[200~one\x1b[201~\x1b[200~two\x1b[201~x",
			[]event{{paste: "one"}, {paste: "two"}, {bytes: "x"}}},
		{"a large paste", "q\x1b[200~" + big + "\x1b[201~\r",
			[]event{{bytes: "q"}, {paste: big}, {bytes: "\r"}}},
		{"an escape sequence that is no paste", "\x1b[A\x1b[2~", []event{{bytes: "\x1b[A\x1b[2~"}}},
	}
	for _, tt := range tests {
		for _, n := range []int{1, 2, 3, 4, 7, 256, chunkSize} {
			got := readAll(t, &chunked{src: []byte(tt.input), n: n})
			// Split before heldMin bytes of a marker (possible in reads
			// shorter than it), a paste passes
			// through for Bubble Tea; never anything else.
			if !equal(got, tt.want) && !(n < len(pasteStart) && passedThrough(got, tt.input)) {
				t.Fatalf("%s, read %d bytes at a time: got %d events %.80q, want %.80q", tt.name, n, len(got), got, tt.want)
			}
		}
	}
}

// passedThrough: a start marker split across reads passes through as bytes,
// for Bubble Tea to read.
func passedThrough(got []event, input string) bool {
	var b strings.Builder
	for _, e := range got {
		if e.paste != "" {
			b.WriteString(pasteStart + e.paste + pasteEnd)
		}
		b.WriteString(e.bytes)
	}
	return b.String() == input
}

func equal(a, b []event) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestLargePasteIsLinear: 5 MB arrive in 256-byte reads (a terminal's pace)
// and are delivered in well under a second, where Bubble Tea's own reader
// needs half a minute.
func TestLargePasteIsLinear(t *testing.T) {
	text := bytes.Repeat([]byte("0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH\n"), 90000)
	input := append(append([]byte(pasteStart), text...), pasteEnd...)
	start := time.Now()
	got := readAll(t, &chunked{src: input, n: 256})
	if len(got) != 1 || got[0].paste != string(text) {
		t.Fatalf("got %d events", len(got))
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("5 MB took %v", took)
	}
}
