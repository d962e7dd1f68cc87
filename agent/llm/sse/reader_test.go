package sse

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

type event struct{ typ, data string }

func readAll(t *testing.T, r io.Reader) ([]event, error) {
	t.Helper()
	rd := NewReader(r)
	var out []event
	for rd.Next() {
		ev := rd.Event()
		out = append(out, event{string(ev.Type), string(ev.Data)})
	}
	return out, rd.Err()
}

func TestReader(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []event
	}{
		{"one data line", "data: {\"a\":1}\n\n", []event{{"", "{\"a\":1}\n"}}},
		{"typed events", "event: ping\ndata: {}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
			[]event{{"ping", "{}\n"}, {"message_stop", "{\"type\":\"message_stop\"}\n"}}},
		{"several data lines join with newlines", "data: a\ndata: b\n\n", []event{{"", "a\nb\n"}}},
		{"CRLF line ends", "event: x\r\ndata: a\r\n\r\n", []event{{"x", "a\n"}}},
		{"only one space is dropped", "data:  a\ndata:b\n\n", []event{{"", " a\nb\n"}}},
		{"comments and unknown fields are skipped", ": OPENROUTER PROCESSING\n\nid: 7\nretry: 10\ndata: a\n\n", []event{{"", "a\n"}}},
		{"a blank line without data resets the type", "event: lost\n\ndata: a\n\n", []event{{"", "a\n"}}},
		{"the last event line wins", "event: a\nevent: b\ndata: x\n\n", []event{{"b", "x\n"}}},
		{"a field without a colon", "data\n\n", []event{{"", "\n"}}},
		{"an empty data line dispatches", "data:\n\n", []event{{"", "\n"}}},
		{"an unterminated event is dropped", "data: a\n\ndata: b\n", []event{{"", "a\n"}}},
		{"several blank lines", "\n\n\ndata: a\n\n\n\n", []event{{"", "a\n"}}},
		{"empty stream", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tt.in), iotest.OneByteReader(strings.NewReader(tt.in))} {
				got, err := readAll(t, r)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(tt.want) {
					t.Fatalf("events = %q, want %q", got, tt.want)
				}
				for i := range got {
					if got[i] != tt.want[i] {
						t.Errorf("event %d = %q, want %q", i, got[i], tt.want[i])
					}
				}
			}
		})
	}
}

func TestReaderErrors(t *testing.T) {
	boom := errors.New("connection reset")
	tests := []struct {
		name string
		in   io.Reader
		want error
	}{
		{"read error", io.MultiReader(strings.NewReader("data: a\n\n"), iotest.ErrReader(boom)), boom},
		{"line too long", strings.NewReader("data: " + strings.Repeat("x", MaxLine) + "\n\n"), bufio.ErrTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := readAll(t, tt.in); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestReaderReusesItsBuffers: after the first events, reading an event
// allocates nothing.
func TestReaderReusesItsBuffers(t *testing.T) {
	body := strings.Repeat("event: content_block_delta\ndata: {\"type\":\"content_block_delta\"}\n\n", 2000)
	rd := NewReader(strings.NewReader(body))
	for range 10 {
		rd.Next()
	}
	allocs := testing.AllocsPerRun(1000, func() {
		if !rd.Next() {
			t.Fatal("stream ended early")
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per event, want 0", allocs)
	}
}
