package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func TestString(t *testing.T) {
	tests := []struct {
		name string
		in   string
		sgr  bool
		want string
	}{
		{"plain text is unchanged", "hello\n world", false, "hello\n world"},
		{"a tab becomes spaces to the next stop", "hello\n\tworld\ta\t\tb", false, "hello\n    world   a       b"},
		{"a tab after wide runes counts their columns", "日本\tx", false, "日本    x"},
		{"a tab after colours counts only the text", "\x1b[31mab\x1b[0m\tc", true, "\x1b[31mab\x1b[0m  c"},
		{"unicode is unchanged", "héllo — 世界 🙂", false, "héllo — 世界 🙂"},
		{"OSC 52 clipboard write (BEL)", "a\x1b]52;c;ZXZpbA==\x07b", false, "ab"},
		{"OSC 52 clipboard write (ST)", "a\x1b]52;c;ZXZpbA==\x1b\\b", false, "ab"},
		{"OSC 8 hyperlink keeps its text", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", false, "click"},
		{"OSC 0 title change", "\x1b]0;pwned\x07ok", false, "ok"},
		{"CSI cursor moves and clears", "a\x1b[2J\x1b[H\x1b[10;5Hb\x1b[3A", false, "ab"},
		{"SGR removed by default", "\x1b[31mred\x1b[0m", false, "red"},
		{"SGR kept when allowed", "\x1b[31mred\x1b[0m", true, "\x1b[31mred\x1b[0m"},
		{"non-SGR CSI removed even when SGR allowed", "\x1b[2Jx\x1b[?25l", true, "x"},
		{"DCS removed", "a\x1bPq#0;2;0;0;0\x1b\\b", false, "ab"},
		{"APC removed", "a\x1b_Gf=100;AAAA\x1b\\b", false, "ab"},
		{"two-byte ESC (RIS) removed", "a\x1bcb", false, "ab"},
		{"carriage return restarts the line", "10%\r50%\r100%\ndone", false, "100%\ndone"},
		{"CRLF is a newline", "one\r\ntwo\r\n", false, "one\ntwo\n"},
		{"carriage return restarts only its line", "a\nb\rc\n\rd\r", false, "a\nc\n"},
		{"carriage return drops the SGR before it", "\x1b[31m1%\r\x1b[32m2%\x1b[0m", true, "\x1b[32m2%\x1b[0m"},
		{"tab before a carriage return goes too", "\tx\ry\tz", false, "y   z"},
		{"backspace removed", "ab\bc", false, "abc"},
		{"BEL removed", "ding\a!", false, "ding!"},
		{"other C0 removed", "a\x00b\x01c\x0bd\x0ce\x1ff", false, "abcdef"},
		{"DEL removed", "a\x7fb", false, "ab"},
		{"C1 CSI U+009B with its parameters", "a\u009b2Jb", false, "ab"},
		{"C1 OSC U+009D to BEL", "a\u009d52;c;eA==\ab", false, "ab"},
		{"C1 NEL removed", "a\u0085b", false, "ab"},
		{"raw 0x9b byte is invalid UTF-8", "a\x9b2Jb", false, "a\uFFFD2Jb"},
		{"bidi overrides removed", "abc\u202edcb\u202c\u2066x\u2069", false, "abcdcbx"},
		{"unterminated OSC is dropped", "ok\x1b]52;c;AAAA", false, "ok"},
		{"lone ESC at the end", "ok\x1b", false, "ok"},
		{"invalid UTF-8", "a\xffb", false, "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := String(tt.in, Options{AllowSGR: tt.sgr})
			if got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if !tt.sgr && strings.ContainsRune(got, 0x1b) {
				t.Errorf("ESC survived in %q", got)
			}
		})
	}
}

func TestStringIsIdempotent(t *testing.T) {
	for _, in := range []string{"a\x1b[31mb\r\nc\rd", "\u009b1m\u202ex\x07"} {
		once := String(in, Options{})
		if twice := String(once, Options{}); twice != once {
			t.Errorf("String(String(%q)) = %q, want %q", in, twice, once)
		}
	}
}

// quadraticString is String as it was before lines were built apart (tabs
// aside, which became spaces later): a lone "\r" truncated the whole output
// so far. FuzzStringCarriageReturns checks
// the faster String still does exactly this.
func quadraticString(s string, opts Options) string {
	var b strings.Builder
	lineStart := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			b.WriteByte(c)
			i++
			lineStart = b.Len()
		case c == '\t':
			col := ansi.StringWidth(b.String()[lineStart:])
			b.WriteString(spaces[:tabStop-col%tabStop])
			i++
		case c == '\r':
			i++
			if i < len(s) && s[i] == '\n' {
				continue
			}
			cut := b.String()[:lineStart]
			b.Reset()
			b.WriteString(cut)
		case c == 0x1b:
			seq, _, n, _ := ansi.DecodeSequence(s[i:], ansi.NormalState, nil)
			if n <= 0 {
				n = 1
			}
			if opts.AllowSGR && isSGR(seq) {
				b.WriteString(seq)
			}
			i += n
		case c < 0x20 || c == 0x7f:
			i++
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size
			switch {
			case r == utf8.RuneError && size == 1:
				b.WriteRune(utf8.RuneError)
			case r >= 0x80 && r <= 0x9f:
				i += skipC1(s[i:], r)
			case isBidiControl(r):
			default:
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

func FuzzStringCarriageReturns(f *testing.F) {
	f.Add("10%\r50%\r100%\ndone\r\n\x1b[31mx\ry\x1b[0m\r", true)
	f.Add("a\u009b2J\rb\u202e\r\xff\n\t\r", false)
	f.Fuzz(func(t *testing.T, s string, sgr bool) {
		opts := Options{AllowSGR: sgr}
		if got, want := String(s, opts), quadraticString(s, opts); got != want {
			t.Fatalf("String(%q) = %q, want %q", s, got, want)
		}
	})
}

// benchSize is the size of each benchmark's input: a long tool output.
const benchSize = 50 << 10

// repeatTo repeats unit until the result holds about size bytes.
func repeatTo(unit string, size int) string {
	return strings.Repeat(unit, size/len(unit)+1)[:size]
}

// BenchmarkString sanitises 50 KB of three kinds of tool output: plain
// text, text coloured with SGR sequences, and progress bars that redraw
// their line with a lone "\r" (the case that once copied all output so far
// on every "\r"). Each should cost about the same per byte.
func BenchmarkString(b *testing.B) {
	inputs := []struct{ name, in string }{
		{"plain-50KB", repeatTo("a line of ordinary tool output\n", benchSize)},
		{"sgr-colours-50KB", repeatTo("\x1b[32mok\x1b[0m line\r\n", benchSize)},
		{"progress-bar-50KB", repeatTo("get pkg  10%\rget pkg  55%\rget pkg 100%\n", benchSize)},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in.in)))
			for b.Loop() {
				String(in.in, Options{})
			}
		})
	}
}
