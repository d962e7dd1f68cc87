package chat

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"github.com/steer-tui/steer/tui/theme"
)

// proseWords are what the random paragraphs are made of: words short and
// longer than narrow widths, hyphens, and every punctuation isPlainProse
// lets through.
var proseWords = []string{"a", "I", "the", "word", "words", "wrapping", "paragraph", "some-hyphenated", "long-hyphenated-compound",
	"extraordinarily", "supercalifragilisticexpialidocious", "1999", "v2", "50%", "$5", "and/or", "(aside)", "\"quoted\"", "it's",
	"end.", "comma,", "semi;", "what?", "yes!", "-", "x-", "-y", "a.b.c", "e.g."}

// randomParagraphs is one to four random paragraphs, one to three blank
// lines apart.
func randomParagraphs(r *rand.Rand) string {
	var b strings.Builder
	for i := range 1 + r.IntN(4) {
		if i > 0 {
			b.WriteString(strings.Repeat("\n", 2+r.IntN(2)))
		}
		b.WriteString(strings.TrimRight(randomProse(r), "\n"))
	}
	return b.String() + strings.Repeat("\n", r.IntN(3))
}

func randomProse(r *rand.Rand) string {
	n := 1 + r.IntN(60)
	words := make([]string, n)
	for i := range words {
		words[i] = proseWords[r.IntN(len(proseWords))]
	}
	words[0] = "Start" + words[0]
	return strings.Join(words, " ") + strings.Repeat(" ", r.IntN(3)) + strings.Repeat("\n", r.IntN(3))
}

// TestProseRendersAsGlamourDoes holds the prose path to Glamour's render of
// the same paragraphs, over random paragraphs, widths, themes and colour
// profiles.
func TestProseRendersAsGlamourDoes(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 1))
	themes := []theme.Theme{theme.Dark(), theme.Light(), theme.Plain()}
	profiles := []termenv.Profile{termenv.Ascii, termenv.ANSI256, termenv.TrueColor}
	checked := 0
	for range 300 {
		width := 1 + r.IntN(140)
		th, profile := themes[r.IntN(len(themes))], profiles[r.IntN(len(profiles))]
		md := newMarkdown(width, th.Markdown, theme.Fast(th.Markdown), profile)
		for range 10 {
			src := randomParagraphs(r)
			if _, ok := proseParagraphs(src); !ok {
				t.Fatalf("%q is not plain prose", src)
			}
			if !md.prose {
				continue
			}
			checked++
			if got, want := md.render(src, false), md.glamour(src, false); !slices.Equal(got, want) {
				t.Fatalf("theme %s, profile %v, width %d, %q:\nprose   %q\nglamour %q", th.Name, profile, width, src, got, want)
			}
		}
	}
	if checked < 2000 {
		t.Fatalf("only %d paragraphs were checked: the probe turned prose off too often", checked)
	}
}

// TestProseIsOnForTheThemes checks that the probe lets prose render for the
// themes steer ships at the widths terminals have: a probe that disagreed
// would silently leave every paragraph to Glamour.
func TestProseIsOnForTheThemes(t *testing.T) {
	for _, th := range []theme.Theme{theme.Dark(), theme.Light(), theme.Plain()} {
		for _, width := range []int{20, 40, 78, 118, 200} {
			for _, profile := range []termenv.Profile{termenv.Ascii, termenv.TrueColor} {
				if md := newMarkdown(width, th.Markdown, theme.Fast(th.Markdown), profile); !md.prose {
					t.Errorf("theme %s, width %d, profile %v: prose is off", th.Name, width, profile)
				}
			}
		}
	}
}

func TestProseParagraphs(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"One.\n\nTwo.\n", []string{"One.\n", "Two.\n"}},
		{"One.\n\n\nTwo", []string{"One.\n", "Two"}},
		{"One.\nTwo.", nil},         // one paragraph of two lines
		{"One.\n  \nTwo.", nil},     // a line of spaces
		{"One.\n\n- a list\n", nil}, // not all prose
		{"\n\n", nil},
	} {
		got, ok := proseParagraphs(tc.src)
		if ok != (tc.want != nil) || !slices.Equal(got, tc.want) {
			t.Errorf("proseParagraphs(%q) = %q, %v; want %q", tc.src, got, ok, tc.want)
		}
	}
}

func TestIsPlainProse(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"Plain words, and more (of them).\n\n", true},
		{"It costs $5 or 50% - no more/less!", true},
		{"", false},
		{"two\nlines", false},
		{" leading space", false},
		{"trailing spaces  \n\n", true},
		{"spaces then a line  \nmore", false},
		{"double  space", false},
		{"1. a list", false},
		{"- a list", false},
		{"# heading", false},
		{"> quote", false},
		{"some *emphasis*", false},
		{"some _emphasis_", false},
		{"some `code`", false},
		{"a [link](x)", false},
		{"an <b>tag</b>", false},
		{"an &amp; entity", false},
		{"an \\ escape", false},
		{"an :emoji:", false},
		{"see http://example.com", false},
		{"see www.example.com", false},
		{"see WWW.example.com", false},
		{"strike ~~this~~", false},
		{"a | table", false},
		{"café", false},
		{"tab\there", false},
	} {
		if got := isPlainProse(tc.src); got != tc.want {
			t.Errorf("isPlainProse(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

func BenchmarkParagraph(b *testing.B) {
	th := theme.Dark()
	md := newMarkdown(116, th.Markdown, theme.Fast(th.Markdown), termenv.TrueColor)
	var words []string
	for i := range 40 {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	src := strings.Join(words, " ") + "\n\n"
	b.Run("glamour", func(b *testing.B) {
		for b.Loop() {
			md.glamour(src, false)
		}
	})
	b.Run("prose", func(b *testing.B) {
		for b.Loop() {
			md.render(src, false)
		}
	})
}
