package tools

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTailBuffer(t *testing.T) {
	tests := []struct {
		name      string
		writes    []string
		want      string // the whole text, or its suffix when prefix is set
		prefix    string
		shown     int
		total     int
		truncated bool
	}{
		{name: "nothing", writes: nil, want: ""},
		{name: "one line", writes: []string{"hi\n"}, want: "hi", shown: 1, total: 1},
		{name: "no final newline", writes: []string{"a\nb"}, want: "a\nb", shown: 2, total: 2},
		{name: "split writes", writes: []string{"a", "b\nc", "d\n"}, want: "ab\ncd", shown: 2, total: 2},
		{name: "line cap keeps the tail", writes: []string{numberedLines(2500)},
			prefix: "line 501\n", want: "line 2500", shown: 2000, total: 2500, truncated: true},
		{name: "byte cap drops the partial first line",
			writes: []string{strings.Repeat(strings.Repeat("y", 99)+"\n", 1000)},
			prefix: strings.Repeat("y", 99) + "\n", want: strings.Repeat("y", 99),
			shown: maxBytes / 100, total: 1000, truncated: true},
		{name: "one huge line keeps its tail",
			writes: []string{"ab", strings.Repeat("é", maxBytes)},
			prefix: "é", want: "é", shown: 1, total: 1, truncated: true},
		{name: "invalid UTF-8 is replaced", writes: []string{"a\xffb\n"}, want: "a\uFFFDb", shown: 1, total: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newTailBuffer()
			for _, w := range tt.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			got := b.snapshot()
			if tt.prefix == "" && got.text != tt.want {
				t.Errorf("text = %q, want %q", got.text, tt.want)
			}
			if !strings.HasPrefix(got.text, tt.prefix) || !strings.HasSuffix(got.text, tt.want) {
				t.Errorf("text = %.40q…%q, want %.40q…%q", got.text, got.text[max(len(got.text)-40, 0):], tt.prefix, tt.want)
			}
			if got.shown != tt.shown || got.total != tt.total || got.truncated != tt.truncated {
				t.Errorf("shown, total, truncated = %d, %d, %v, want %d, %d, %v",
					got.shown, got.total, got.truncated, tt.shown, tt.total, tt.truncated)
			}
			if len(got.text) > maxBytes || !utf8.ValidString(got.text) {
				t.Errorf("text is %d bytes, valid UTF-8 %v", len(got.text), utf8.ValidString(got.text))
			}
		})
	}
}

// TestTailBufferMemory writes 64 MB and checks the buffer never grew past its
// bound.
func TestTailBufferMemory(t *testing.T) {
	b := newTailBuffer()
	chunk := bytes.Repeat([]byte("0123456789abcde\n"), 2048) // 32 KB, like os/exec's copy buffer
	for range 2048 {
		b.Write(chunk)
		if c := cap(b.buf); c > 3*maxBytes {
			t.Fatalf("buffer capacity %d, want at most %d", c, 3*maxBytes)
		}
	}
	got := b.snapshot()
	if got.total != 2048*2048 || got.totalBytes != 64<<20 || !got.truncated {
		t.Errorf("total %d lines, %d bytes, truncated %v", got.total, got.totalBytes, got.truncated)
	}
}
