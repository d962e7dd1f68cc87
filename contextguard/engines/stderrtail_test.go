package engines

import (
	"strings"
	"testing"
)

func TestStderrTail(t *testing.T) {
	long := strings.Repeat("x", 3000)
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"nothing", nil, ""},
		{"one line", []string{"boom\n"}, "boom"},
		{"a last line without newline", []string{"a\nb"}, "a | b"},
		{"lines split across writes", []string{"Trace", "back\nKeyErr", "or: 'x'\n"}, "Traceback | KeyError: 'x'"},
		{"the last five lines", []string{"1\n2\n3\n4\n5\n6\n7\n"}, "3 | 4 | 5 | 6 | 7"},
		{"blank lines skipped", []string{"a\n\n  \r\nb\r\n"}, "a | b"},
		{"escapes and controls dropped", []string{"\x1b[31mred\x1b[0m\a \x1b]52;c;SGVsbG8=\x07ok\u202e\n"}, "red ok"},
		{"tabs become spaces", []string{"a\tb\n"}, "a b"},
		{"a long line keeps its end", []string{long + "END\n"}, "…" + strings.Repeat("x", tailBytes-3) + "END"},
		{"a long partial keeps its end", []string{long, "END"}, "…" + strings.Repeat("x", tailBytes-3) + "END"},
		{"a cut never splits a rune", []string{strings.Repeat("é", 600) + "\n"}, "…" + strings.Repeat("é", tailBytes/2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tail stderrTail
			for _, w := range tt.writes {
				if n, err := tail.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if got := tail.String(); got != tt.want {
				t.Errorf("tail\n got %q\nwant %q", got, tt.want)
			}
			if got := tail.String(); len(got) > tailBytes+len("…") {
				t.Errorf("tail of %d bytes", len(got))
			}
		})
	}
}
