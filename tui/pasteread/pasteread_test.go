package pasteread

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"

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

// largePaste is 5 MB of text between paste markers: the text, and the
// input a terminal sends for it.
func largePaste() (text, input []byte) {
	text = bytes.Repeat([]byte("0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH\n"), 90000)
	return text, append(append([]byte(pasteStart), text...), pasteEnd...)
}

// drain reads input through a Reader in 256-byte reads (a terminal's pace,
// and Bubble Tea's), and returns the pastes delivered.
func drain(input []byte) (pastes [][]rune) {
	r, err := New(&chunked{src: input, n: 256}, func(msg tea.Msg) {
		pastes = append(pastes, msg.(tea.KeyMsg).Runes)
	})
	if err != nil {
		panic(err)
	}
	buf := make([]byte, 256)
	for {
		if _, err := r.Read(buf); err != nil {
			return pastes
		}
	}
}

// Linearity, in what a paste costs the heap: no allocation per read (only
// the paste's buffer growing, a few dozen times), and a few bytes per byte
// pasted (the buffer's growth, the message's string and runes, ~10). Bubble
// Tea's own reader copies all of the paste so far on every read: ~20,000
// allocations and 10,000 bytes per byte for these 5 MB.
const (
	maxPasteAllocs       = 100
	maxPasteBytesPerByte = 16
)

// TestLargePasteIsLinear: 5 MB arriving in 256-byte reads (19,000 reads)
// are delivered as one paste at a cost of the heap that does not grow with
// the number of reads (TestEndIsSearchedOnce covers the search for its
// end; BenchmarkLargePaste times it).
func TestLargePasteIsLinear(t *testing.T) {
	text, input := largePaste()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	pastes := drain(input)
	runtime.ReadMemStats(&after)
	if len(pastes) != 1 || string(pastes[0]) != string(text) {
		t.Fatalf("got %d pastes, want the one of %d bytes", len(pastes), len(text))
	}
	allocs := after.Mallocs - before.Mallocs
	perByte := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(input))
	t.Logf("%d reads: %d allocations, %.1f bytes allocated per byte", len(input)/256, allocs, perByte)
	if allocs > maxPasteAllocs || perByte > maxPasteBytesPerByte {
		t.Fatalf("%d allocations and %.1f bytes per byte for %d bytes in 256-byte reads, want at most %d and %d",
			allocs, perByte, len(input), maxPasteAllocs, maxPasteBytesPerByte)
	}
}

// TestEndIsSearchedOnce: the search for a paste's end looks only at the
// bytes the search before it could not have found it in, so a paste's cost
// of searching is linear; a marker split across reads is found.
func TestEndIsSearchedOnce(t *testing.T) {
	tests := []struct {
		name    string
		paste   string
		scanned int
		want    int
	}{
		{"nothing searched yet", "ab" + pasteEnd, 0, 2},
		{"the marker in new bytes", "ab" + pasteEnd, 2, 2},
		{"split across reads", "ab" + pasteEnd, 2 + len(pasteEnd) - 1, 2},
		{"not there yet", "ab\x1b[201", 0, -1},
		// The search before this one would have found it: it is not looked
		// at again.
		{"in bytes searched before", "ab" + pasteEnd + "cd", 2 + len(pasteEnd), -1},
	}
	for _, tt := range tests {
		if got := endFrom([]byte(tt.paste), tt.scanned); got != tt.want {
			t.Errorf("%s: endFrom(%q, %d) = %d, want %d", tt.name, tt.paste, tt.scanned, got, tt.want)
		}
	}
}

// BenchmarkLargePaste times a 5 MB paste in 256-byte reads: well under a
// second, where Bubble Tea's own reader needs half a minute.
func BenchmarkLargePaste(b *testing.B) {
	_, input := largePaste()
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		drain(input)
	}
}
