package sanitize

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// attack is one string a model or a tool could print to take over the
// terminal, and what should be left of it.
type attack struct {
	name string
	in   string
	want string // the text that survives, with SGR removed
}

// corpus gathers the escape sequences and characters terminals act on,
// grouped by kind: each must come out as plain text.
var corpus = []attack{
	// OSC: operating system commands.
	{"OSC 52 clipboard write, BEL", "a\x1b]52;c;aGVsbG8=\ab", "ab"},
	{"OSC 52 clipboard write, ST", "a\x1b]52;c;aGVsbG8=\x1b\\b", "ab"},
	{"OSC 52 clipboard read request", "a\x1b]52;c;?\ab", "ab"},
	{"OSC 52 primary selection", "\x1b]52;p;cHduZWQ=\aok", "ok"},
	{"OSC 0 title and icon", "\x1b]0;pwned\aok", "ok"},
	{"OSC 1 icon name", "\x1b]1;pwned\x1b\\ok", "ok"},
	{"OSC 2 window title, BEL", "\x1b]2;pwned\aok", "ok"},
	{"OSC 2 window title, ST", "\x1b]2;pwned\x1b\\ok", "ok"},
	{"OSC 4 palette change", "\x1b]4;1;rgb:ff/00/00\aok", "ok"},
	{"OSC 7 working directory", "\x1b]7;file://host/etc\aok", "ok"},
	{"OSC 8 hyperlink keeps its text", "\x1b]8;;http://evil.example/\x1b\\label\x1b]8;;\x1b\\", "label"},
	{"OSC 10 colour query", "\x1b]10;?\aok", "ok"},
	{"OSC 11 background query", "\x1b]11;?\x1b\\ok", "ok"},
	{"OSC 1337 file transfer", "\x1b]1337;File=name=eA==;inline=1:AAAA\aok", "ok"},
	{"ESC inside OSC ends it, as terminals do", "\x1b]0;a\x1b[31mb\aok", "bok"},
	{"OSC unterminated at the end", "ok\x1b]2;pwned", "ok"},

	// CSI: control sequences.
	{"cursor position", "a\x1b[Hb\x1b[10;20Hc\x1b[5;5fd", "abcd"},
	{"cursor moves", "a\x1b[3Ab\x1b[2Bc\x1b[4Cd\x1b[1De\x1b[2Ef\x1b[2Fg\x1b[9Gh", "abcdefgh"},
	{"save and restore the cursor", "a\x1b[sb\x1b[uc", "abc"},
	{"erase display", "a\x1b[2Jb\x1b[3Jc\x1b[Jd", "abcd"},
	{"erase line", "a\x1b[Kb\x1b[2Kc", "abc"},
	{"insert and delete", "a\x1b[5@b\x1b[3Pc\x1b[2Ld\x1b[2Me\x1b[4Xf", "abcdef"},
	{"scroll region and scrolling", "a\x1b[1;5rb\x1b[3Sc\x1b[2Td", "abcd"},
	{"alternate screen", "a\x1b[?1049hb\x1b[?1049lc", "abc"},
	{"hide the cursor", "a\x1b[?25lb", "ab"},
	{"mouse tracking", "a\x1b[?1000h\x1b[?1006hb", "ab"},
	{"bracketed paste off", "a\x1b[?2004lb", "ab"},
	{"device status report (answers on stdin)", "a\x1b[6nb", "ab"},
	{"device attributes (answers on stdin)", "a\x1b[cb\x1b[>cc", "abc"},
	{"report the title (answers on stdin)", "a\x1b[21tb", "ab"},
	{"window resize and move", "a\x1b[8;100;300tb\x1b[3;0;0tc", "abc"},
	{"cursor style with an intermediate", "a\x1b[2 qb", "ab"},
	{"soft reset", "a\x1b[!pb", "ab"},
	{"SGR colours", "\x1b[1;31mred\x1b[0m \x1b[38;5;196mx\x1b[38:2:1:2:3my\x1b[m", "red xy"},
	{"huge parameter list", "a\x1b[" + strings.Repeat("9;", 5000) + "mb", "ab"},
	{"CSI interrupted by OSC", "a\x1b[3\x1b]0;x\a1mb", "a1mb"},
	{"CSI unterminated at the end", "ok\x1b[31", "ok"},

	// Other ESC sequences.
	{"full reset (RIS)", "a\x1bcb", "ab"},
	{"save and restore cursor (DECSC/DECRC)", "a\x1b7b\x1b8c", "abc"},
	{"index, next line, reverse index", "a\x1bDb\x1bEc\x1bMd", "abcd"},
	{"DEC line drawing charset", "a\x1b(0lqqk\x1b(Bb", "alqqkb"},
	{"screen alignment test fills the screen", "a\x1b#8b", "ab"},
	{"keypad modes", "a\x1b=b\x1b>c", "abc"},
	{"lone ST", "a\x1b\\b", "ab"},
	{"double ESC", "a\x1b\x1b[31mb", "ab"},
	{"lone ESC at the end", "ok\x1b", "ok"},

	// DCS, SOS, PM, APC: strings for the terminal.
	{"DCS request status (DECRQSS)", "a\x1bP$q\"p\x1b\\b", "ab"},
	{"DCS termcap query (XTGETTCAP)", "a\x1bP+q544e\x1b\\b", "ab"},
	{"DCS sixel image", "a\x1bPq#0;2;0;0;0#0~~@@vv\x1b\\b", "ab"},
	{"DCS tmux passthrough", "a\x1bPtmux;\x1b\x1b]52;c;aGk=\a\x1b\\b", "ab"},
	{"SOS string", "a\x1bXhidden\x1b\\b", "ab"},
	{"PM privacy message", "a\x1b^hidden\x1b\\b", "ab"},
	{"APC kitty graphics", "a\x1b_Gf=100,a=T;AAAA\x1b\\b", "ab"},
	{"DCS unterminated at the end", "ok\x1bPq#0", "ok"},

	// C1 controls, 7-bit forms above; 8-bit forms as UTF-8 runes here.
	{"C1 CSI", "a\u009b2Jb\u009b?1049hc", "abc"},
	{"C1 OSC to BEL", "a\u009d2;pwned\ab", "ab"},
	{"C1 OSC to C1 ST", "a\u009d52;c;aGk=\u009cb", "ab"},
	{"C1 OSC to ESC ST", "a\u009d0;x\x1b\\b", "ab"},
	{"C1 DCS", "a\u0090$q\"p\u009cb", "ab"},
	{"C1 SOS", "a\u0098hidden\u009cb", "ab"},
	{"C1 PM", "a\u009ehidden\u009cb", "ab"},
	{"C1 APC", "a\u009fGf=100;AAAA\u009cb", "ab"},
	{"C1 single controls", "a\u0084b\u0085c\u0088d\u008de\u008ef\u008fg\u0096h\u009ci", "abcdefghi"},
	{"C1 OSC unterminated stops at the line end", "a\u009d0;x\nnext", "a\nnext"},

	// 8-bit C1 as raw bytes: invalid UTF-8, so a UTF-8 terminal ignores
	// them; they become U+FFFD and what followed stays text.
	{"raw 8-bit CSI", "a\x9b2Jb", "a\uFFFD2Jb"},
	{"raw 8-bit OSC", "a\x9d0;t\x07b", "a\uFFFD0;tb"},
	{"raw 8-bit DCS and ST", "a\x90q\x9cb", "a\uFFFDq\uFFFDb"},

	// C0 controls and DEL.
	{"NUL", "a\x00b", "ab"},
	{"BEL", "a\ab", "ab"},
	{"backspace overwrites", "abc\b\b\bXYZ", "abcXYZ"},
	{"vertical tab and form feed", "a\vb\fc", "abc"},
	{"shift out to the G1 charset and back", "a\x0eb\x0fc", "abc"},
	{"CAN and SUB", "a\x18b\x1ac", "abc"},
	{"file, group, record, unit separators", "a\x1cb\x1dc\x1ed\x1fe", "abcde"},
	{"DEL", "a\x7fb", "ab"},
	{"carriage return overwrite", "safe\rEVIL", "EVIL"},

	// Bidirectional controls (Trojan Source).
	{"LRE RLE PDF LRO RLO", "a\u202ab\u202bc\u202cd\u202de\u202ef", "abcdef"},
	{"LRI RLI FSI PDI", "a\u2066b\u2067c\u2068d\u2069e", "abcde"},
	{"RLO reversing a command", "rm -rf \u202e/ kcatta", "rm -rf / kcatta"},

	// Invalid UTF-8.
	{"lone continuation and high bytes", "a\x80b\xffc\xfed", "a\uFFFDb\uFFFDc\uFFFDd"},
	{"overlong slash", "a\xc0\xafb", "a\uFFFD\uFFFDb"},
	{"UTF-16 surrogate", "a\xed\xa0\x80b", "a\uFFFD\uFFFD\uFFFDb"},
	{"truncated sequence", "a\xe2\x82", "a\uFFFD\uFFFD"},

	// What stays.
	{"newlines and tabs", "a\tb\nc\r\nd", "a   b\nc\nd"},
	{"unicode text", "naïve 日本語 🙂 עברית", "naïve 日本語 🙂 עברית"},
}

// sgrSequence is a colour sequence, the one escape AllowSGR lets through.
var sgrSequence = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// unsafeIn reports the first thing in s that a terminal would act on:
// an escape (other than SGR when allowed), a control character other than
// newline and tab, a C1 control, a bidi control, or invalid UTF-8.
func unsafeIn(s string, allowSGR bool) string {
	if allowSGR {
		s = sgrSequence.ReplaceAllString(s, "")
	}
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for _, r := range s {
		switch {
		case r == '\n':
		case r < 0x20 || r == 0x7f:
			return fmt.Sprintf("C0 control %U", r)
		case r >= 0x80 && r <= 0x9f:
			return fmt.Sprintf("C1 control %U", r)
		case isBidiControl(r):
			return fmt.Sprintf("bidi control %U", r)
		}
	}
	return ""
}

func TestCorpusNoneSurvive(t *testing.T) {
	for _, a := range corpus {
		t.Run(a.name, func(t *testing.T) {
			got := String(a.in, Options{})
			if bad := unsafeIn(got, false); bad != "" {
				t.Errorf("String(%q) = %q: %s survives", a.in, got, bad)
			}
			if got != a.want {
				t.Errorf("String(%q) = %q, want %q", a.in, got, a.want)
			}
			withSGR := String(a.in, Options{AllowSGR: true})
			if bad := unsafeIn(withSGR, true); bad != "" {
				t.Errorf("with SGR allowed, String(%q) = %q: %s survives", a.in, withSGR, bad)
			}
			if plain := sgrSequence.ReplaceAllString(withSGR, ""); plain != a.want {
				t.Errorf("with SGR allowed, String(%q) = %q; without its SGR %q, want %q", a.in, withSGR, plain, a.want)
			}
		})
	}
}

// TestCorpusConcatenated: the corpus run together, as one long tool
// output, leaves nothing unsafe either.
func TestCorpusConcatenated(t *testing.T) {
	var b strings.Builder
	for _, a := range corpus {
		b.WriteString(a.in)
		b.WriteString("\n")
	}
	for _, sgr := range []bool{false, true} {
		if bad := unsafeIn(String(b.String(), Options{AllowSGR: sgr}), sgr); bad != "" {
			t.Errorf("AllowSGR %v: %s survives", sgr, bad)
		}
	}
}

func FuzzStringIsSafe(f *testing.F) {
	for _, a := range corpus {
		f.Add(a.in, false)
	}
	f.Add("\x1b[31m\u009b\x1b]8;;x\a\u202e", true)
	f.Fuzz(func(t *testing.T, s string, sgr bool) {
		got := String(s, Options{AllowSGR: sgr})
		if bad := unsafeIn(got, sgr); bad != "" {
			t.Fatalf("String(%q) = %q: %s survives", s, got, bad)
		}
		if again := String(got, Options{AllowSGR: sgr}); again != got {
			t.Fatalf("String is not idempotent on %q: %q then %q", s, got, again)
		}
	})
}
