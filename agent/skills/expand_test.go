package skills

import (
	"strings"
	"testing"
)

// TestSubstitute: pi's placeholders, one pass.
func TestSubstitute(t *testing.T) {
	cases := []struct {
		name, body string
		args       []string
		want       string
	}{
		{"positional", "Review $1 for $2.", []string{"a.go", "bugs"}, "Review a.go for bugs."},
		{"all", "Do $ARGUMENTS; again $@.", []string{"x", "y z"}, "Do x y z; again x y z."},
		{"missing is empty", "[$1][$3]", []string{"a"}, "[a][]"},
		{"from the second", "${@:2}", []string{"a", "b", "c"}, "b c"},
		{"two from the second", "${@:2:2}", []string{"a", "b", "c", "d"}, "b c"},
		{"slice past the end", "<${@:5}>", []string{"a"}, "<>"},
		{"zero is the first", "${@:0:1}", []string{"a", "b"}, "a"},
		{"a long length", "${@:1:99999999999999999999}", []string{"a", "b"}, "a b"},
		{"$10", "$10", []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "ten"}, "ten"},
		{"not expanded again", "$1 $2", []string{"$2", "b"}, "$2 b"},
		{"no arguments", "Plain $ text", nil, "Plain $ text"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Substitute(c.body, c.args); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestSplitArgs: blanks split, quotes keep spaces and go.
func TestSplitArgs(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a  b\tc", []string{"a", "b", "c"}},
		{`"a b" c`, []string{"a b", "c"}},
		{`x'y z'w`, []string{"xy zw"}},
		{`""`, []string{""}},
		{`"open`, []string{"open"}},
	}
	for _, c := range cases {
		if got := SplitArgs(c.in); strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
			t.Errorf("SplitArgs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestExpand: /skill:name sends the body in its block with the arguments
// after it, a template its body with the arguments put in; anything else
// is sent as typed, and an unknown skill is an error.
func TestExpand(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, ".steer/skills/pdf/SKILL.md", "---\nname: pdf\ndescription: PDFs.\n---\n\nUse scripts/x.py.\n")
	write(t, dir, ".steer/prompts/review.md", "---\ndescription: r\n---\nReview $1 ($ARGUMENTS)")
	c := Load(dir, UserDirs{})
	block := "<skill name=\"pdf\" location=\"" + p + "\">\nReferences are relative to " + dir + "/.steer/skills/pdf.\n\nUse scripts/x.py.\n</skill>"
	cases := []struct {
		line, want string
		ok         bool
		err        string
	}{
		{"/skill:pdf", block, true, ""},
		{"/skill:pdf hello there", block + "\n\nhello there", true, ""},
		{"/skill:pdf\nline two", block + "\n\nline two", true, ""},
		{"/review a.go b.go", "Review a.go (a.go b.go)", true, ""},
		{"/review", "Review  ()", true, ""},
		{"/usr/bin is odd", "/usr/bin is odd", false, ""},
		{"hello /review", "hello /review", false, ""},
		{"/skill:nope hi", "/skill:nope hi", false, `no skill "nope": the skills are pdf`},
	}
	for _, tc := range cases {
		got, ok, err := c.Expand(tc.line)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %q", tc.line, err, tc.err)
			}
			continue
		}
		if err != nil || ok != tc.ok || got != tc.want {
			t.Errorf("%q: got %q, %v, %v\nwant %q, %v", tc.line, got, ok, err, tc.want, tc.ok)
		}
	}
}

// TestSystemPrompt: model-invocable skills are listed with name,
// description and path, escaped; disable-model-invocation keeps one out;
// none leaves the section out.
func TestSystemPrompt(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, ".steer/skills/a/SKILL.md", "---\nname: a\ndescription: Tables & <charts>\n---\n")
	write(t, dir, ".steer/skills/b/SKILL.md", "---\nname: b\ndescription: hidden\ndisable-model-invocation: true\n---\n")
	got := Load(dir, UserDirs{}).SystemPrompt()
	want := "  <skill>\n    <name>a</name>\n    <description>Tables &amp; &lt;charts&gt;</description>\n    <location>" + p + "</location>\n  </skill>\n</available_skills>"
	if !strings.HasPrefix(got, "# Skills\n") || !strings.HasSuffix(got, want) || strings.Contains(got, "hidden") {
		t.Fatalf("got:\n%s", got)
	}
	if got := Load(t.TempDir(), UserDirs{}).SystemPrompt(); got != "" {
		t.Fatalf("no skills: %q", got)
	}
}
