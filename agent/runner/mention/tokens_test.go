package mention

import (
	"slices"
	"testing"
)

func TestMentions(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"what is in @README.md", []string{"README.md"}},
		{"@a.go and @dir/b.go.", []string{"a.go", "dir/b.go."}},
		{"mail me at a@b.com", nil},
		{`see @"my notes.md" now`, []string{"my notes.md"}},
		{"@ alone", nil},
		{"line\n@x", []string{"x"}},
		{`@"unterminated`, nil},
	}
	for _, tc := range cases {
		if got := Mentions(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("Mentions(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestToken(t *testing.T) {
	for path, want := range map[string]string{"README.md": "@README.md", "my notes.md": `@"my notes.md"`} {
		if got := Token(path); got != want {
			t.Errorf("Token(%q) = %q, want %q", path, got, want)
		}
		if got := Mentions(Token(path)); !slices.Equal(got, []string{path}) {
			t.Errorf("Mentions(Token(%q)) = %q", path, got)
		}
	}
}

func TestPastedImage(t *testing.T) {
	cases := []struct {
		pasted, want string
		ok           bool
	}{
		{"/tmp/shot.png", "/tmp/shot.png", true},
		{"  /tmp/shot.PNG\n", "/tmp/shot.PNG", true},
		{"'/tmp/my shot.png'", "/tmp/my shot.png", true},
		{`"/tmp/my shot.jpg"`, "/tmp/my shot.jpg", true},
		{`/tmp/my\ shot.webp`, "/tmp/my shot.webp", true},
		{"file:///tmp/my%20shot.gif", "/tmp/my shot.gif", true},
		{"/tmp/notes.txt", "", false},
		{"/tmp/a.png\n/tmp/b.png", "", false},
		{"", "", false},
		{"@logo.png", "", false},
	}
	for _, tc := range cases {
		got, ok := PastedImage(tc.pasted)
		if got != tc.want || ok != tc.ok {
			t.Errorf("PastedImage(%q) = %q, %v; want %q, %v", tc.pasted, got, ok, tc.want, tc.ok)
		}
	}
}
