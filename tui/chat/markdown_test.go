package chat

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/tui/theme"
)

func TestSafeCut(t *testing.T) {
	tests := []struct {
		name string
		text string
		want string // the finished blocks
	}{
		{"nothing finished yet", "Hello wor", ""},
		{"an unterminated line decides nothing", "Para one.\n\nPara", "Para one.\n\n"},
		{"paragraphs", "One.\n\nTwo.\n\nThr", "One.\n\nTwo.\n\n"},
		{"heading", "# Title\n\nText", "# Title\n\n"},
		{"open fence keeps blank lines", "```go\na := 1\n\nb := 2\n", ""},
		{"closed fence", "```go\na := 1\n\nb := 2\n```\n\nAfter", "```go\na := 1\n\nb := 2\n```\n\n"},
		{"tilde fence", "~~~\nx\n\n~~~\n\nAfter", "~~~\nx\n\n~~~\n\n"},
		{"list may continue after a blank", "- a\n- b\n\n", ""},
		{"list continued by an item", "- a\n\n- b\n\nc", ""},
		{"list continued by indentation", "- a\n\n  more of a\n\nnext", ""},
		{"list ended by a paragraph", "- a\n- b\n\nNext paragraph\n", "- a\n- b\n\n"},
		{"ordered list", "1. a\n2. b\n\n3. c\n\nDone\n", "1. a\n2. b\n\n3. c\n\n"},
		{"quote continued", "> a\n\n> b\n\nafter\n", "> a\n\n> b\n\n"},
		{"table", "| a | b |\n|---|---|\n| 1 | 2 |\n\nText", "| a | b |\n|---|---|\n| 1 | 2 |\n\n"},
		{"html is never split", "<details>\n\ninside\n\n</details>\n\nafter\n", ""},
		{"indented code is never split", "    code\n\n    more\n\ntext\n", ""},
		{"leading blank lines", "\n\nText\n\nMore", "\n\nText\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.text[:safeCut(tt.text)]; got != tt.want {
				t.Errorf("safeCut(%q) cuts %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

// TestStreamMatchesFinalRender feeds a document in small chunks and checks
// that the pieces show the same text as the exact render at the end.
func TestStreamMatchesFinalRender(t *testing.T) {
	doc := "# Plan\n\nFirst we **look**.\n\n- one\n- two\n\nThen code:\n\n```sh\nmake test\n```\n\nDone."
	st := theme.Plain()
	md := newMarkdown(60, st.Markdown, theme.Fast(st.Markdown), termenv.Ascii)
	var s stream
	for i := 1; i <= len(doc); i += 3 {
		s.set(doc[:i])
		lines := s.lines(md)
		if i > 20 && len(lines) == 0 {
			t.Fatalf("nothing rendered after %d bytes", i)
		}
	}
	s.set(doc)
	streamed := strings.Join(s.lines(md), "\n")
	s.end()
	final := strings.Join(s.lines(md), "\n")
	if squash(streamed) != squash(final) {
		t.Errorf("streamed render differs from the final one:\n%s\n---\n%s", streamed, final)
	}
	if len(s.blocks) < 4 {
		t.Errorf("only %d blocks were finished; the cache is not used", len(s.blocks))
	}
}

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

func TestStreamStartsOverWhenRewritten(t *testing.T) {
	st := theme.Plain()
	md := newMarkdown(40, st.Markdown, theme.Fast(st.Markdown), termenv.Ascii)
	var s stream
	s.set("Alpha.\n\nBeta")
	s.set("Gamma")
	if got := squash(strings.Join(s.lines(md), "\n")); got != "Gamma" {
		t.Fatalf("after a rewrite the stream shows %q", got)
	}
}

func TestTrimRightStyled(t *testing.T) {
	for in, want := range map[string]string{
		"plain   ":                           "plain",
		"\x1b[31mred\x1b[0m\x1b[31m \x1b[0m": "\x1b[31mred\x1b[m",
		"\x1b[31m   \x1b[0m":                 "",
		"":                                   "",
	} {
		if got := trimRightStyled(in); got != want {
			t.Errorf("trimRightStyled(%q) = %q, want %q", in, got, want)
		}
	}
}

// Character references that decode to control characters must not smuggle
// escape sequences past the sanitiser through Glamour's parser.
func TestMarkdownDecodedReferencesAreSanitised(t *testing.T) {
	st := theme.Dark()
	md := newMarkdown(60, st.Markdown, theme.Fast(st.Markdown), termenv.TrueColor)
	for _, src := range []string{
		"hello &#x1b;]0;PWNED&#x07; world",
		"`&#27;[2J` and &#27;]52;c;ZXZpbA==&#7;",
		"bell &#7; and csi &#x9b;2J",
	} {
		for _, fast := range []bool{false, true} {
			out := strings.Join(md.render(src, fast), "\n")
			for _, bad := range []string{"\x1b]", "\x1b[2J", "\a", "\u009b"} {
				if strings.Contains(out, bad) {
					t.Errorf("render(%q, fast=%v) contains %q:\n%q", src, fast, bad, out)
				}
			}
		}
	}
}

// TestEndedStreamIsTheExactRender: when a streamed message ends, what it
// shows is the render of the whole text, in every theme and colour
// profile, for every kind of block; the finished blocks are kept only when
// they are plain prose (reused says which texts keep them).
func TestEndedStreamIsTheExactRender(t *testing.T) {
	docs := []struct {
		doc    string
		reused bool
	}{
		{"# Plan\n\nFirst we **look** at it.\n\nThen we *act*.\n\n## Done\n\nEnd.", true},
		{"Para one.\nstill one\n\nSetext\n===\n\nemphasis *across\n\nblank* lines\n\n### Small ###\n\ntail", true},
		{"# Plan\n\nFirst we **look**.\n\n- one\n- two\n\nThen code:\n\n```sh\nmake test\n```\n\nDone.", false},
		{"Para one.\n\nPara two with `code`.\n\n## Heading\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nEnd.", false},
		{"- a\n  - b\n\nafter", false},
		{"1. a\n   1. b\n\n## H\n\nend", false},
		{"- a\n\n  > q\n\nafter", false},
		{"- a\n\n  ```\n  x\n  ```\n\nafter", false},
		{"Text\n<pre>\n\nhidden?\n\n</pre>\n\nafter", false},
		{"Text\n<!--\n\nhidden comment\n\n-->\n\nafter", false},
		{"```md\nSome doc:\n\n    ```\n\nafter\n```\n\nTail para", false},
		{"```x``` inline\n\nA\n\n```\n\nB", false},
		{"See [the docs][d].\n\nMore.\n\n[d]: http://example.com\n\nmore", false},
		{"Text[^1].\n\nMore.\n\n[^1]: note\n\nmore", false},
		{"> [d]: http://example.com\n\nSee [docs][d].\n\nmore", false},
		{"See [docs][foo bar].\n\n[foo\nbar]: http://example.com\n\nmore", false},
	}
	for _, th := range []theme.Theme{theme.Plain(), theme.Dark()} {
		st := theme.NewStyles(th)
		for _, profile := range []termenv.Profile{termenv.Ascii, termenv.TrueColor} {
			md := newMarkdown(60, st.Chat.Markdown, theme.Fast(st.Chat.Markdown), profile)
			for _, d := range docs {
				var s stream
				for i := 1; i <= len(d.doc); i += 3 {
					s.set(d.doc[:i])
					s.lines(md)
				}
				s.set(d.doc)
				s.lines(md)
				s.end()
				got, want := strings.Join(s.lines(md), "\n"), strings.Join(md.render(d.doc, false), "\n")
				if got != want {
					t.Errorf("%s, %v: the ended stream of %q shows\n%q\nwant the exact render\n%q", th.Name, profile, d.doc, got, want)
				}
				reused := len(s.blocks) > 0 && !strings.Contains(d.doc, "]:") && !slices.ContainsFunc(s.blocks, notPlainProse)
				if reused != d.reused {
					t.Errorf("%q: finished blocks kept = %v, want %v", d.doc, reused, d.reused)
				}
			}
		}
	}
}

// TestTabsFitTheWidth renders text with tabs (code in a fence, grep-style
// lines, an indented block): no tab reaches the screen, where the terminal
// would move it to a tab stop the layout cannot see, and no line is wider
// than the width.
func TestTabsFitTheWidth(t *testing.T) {
	docs := []string{
		"```go\nfunc main() {\n\tif x {\n\t\treturn\t// done\n\t}\n}\n```",
		"Results:\n\n    a.go:7:\t\"github.com/x/y\"\n    b.go:9:\tjson.Marshal(v) // the encoder walks the value by reflection",
		"\tindented\twith\ttabs\tall\tthe\tway\tto\tthe\tend\tof\tthe\tline",
		"Plain\tprose\twith\ttabs\tbetween\tthe\twords\tof\ta\tsentence.",
	}
	for _, width := range []int{30, 60} {
		for _, name := range []string{"dark", "plain"} {
			st := theme.Dark()
			if name == "plain" {
				st = theme.Plain()
			}
			md := newMarkdown(width, st.Markdown, theme.Fast(st.Markdown), termenv.TrueColor)
			for _, doc := range docs {
				for _, fast := range []bool{false, true} {
					for _, line := range md.render(doc, fast) {
						if strings.Contains(line, "\t") || ansi.StringWidth(line) > width {
							t.Errorf("%s, width %d, fast %v: line %q (%d columns) of %q", name, width, fast, line, ansi.StringWidth(line), doc)
						}
					}
				}
			}
		}
	}
}
