package export

import (
	"bytes"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

type writer func(*bytes.Buffer, Session, *Redactor) error

var writers = map[string]writer{
	"html":     func(b *bytes.Buffer, s Session, r *Redactor) error { return HTML(b, s, r) },
	"markdown": func(b *bytes.Buffer, s Session, r *Redactor) error { return Markdown(b, s, r) },
	"jsonl":    func(b *bytes.Buffer, s Session, r *Redactor) error { return JSONL(b, s, r) },
}

func write(t *testing.T, format string, s Session, r *Redactor) string {
	t.Helper()
	var b bytes.Buffer
	if err := writers[format](&b, s, r); err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return b.String()
}

func TestSecretsAreRedactedInEveryFormat(t *testing.T) {
	for _, format := range []string{"html", "markdown", "jsonl"} {
		t.Run(format, func(t *testing.T) {
			r := NewRedactor()
			out := write(t, format, fixture(), r)
			if strings.Contains(out, fakeKey) || strings.Contains(out, "FAKEfake") {
				t.Errorf("the fake key is in the %s export", format)
			}
			if !strings.Contains(out, Redacted) {
				t.Errorf("no %s marker in the %s export", Redacted, format)
			}
			if r.Count() != 1 {
				t.Errorf("Count() = %d, want 1", r.Count())
			}
		})
	}
}

var networkRef = regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?\s*(https?:)?//|url\(\s*["']?\s*(https?:)?//|<link\b|<script[^>]*\bsrc`)

func TestHTMLLoadsNothingAndEscapesTranscript(t *testing.T) {
	out := write(t, "html", fixture(), nil)
	if m := networkRef.FindString(out); m != "" {
		t.Errorf("page references the network: %q", m)
	}
	checks := []struct {
		name, want string
		present    bool
	}{
		{"raw script from the transcript", "<script>alert(1)</script>", false},
		{"escaped script", "&lt;script&gt;alert(1)&lt;/script&gt;", true},
		{"title escaped", "Fix the &lt;script&gt; bug", true},
		{"thinking collapsed", `<details class="thinking"><summary>thinking</summary>`, true},
		{"tool call collapsible", `<details class="call"><summary>tool call: read</summary>`, true},
		{"tool output inside the call", "output of read", true},
		{"compaction marker", "Compacted: 900 → 120 tokens", true},
		{"code highlighted with inline styles", `<pre style=`, true},
		{"link kept as text", `<span class="url">(https://example.com/docs)</span>`, true},
		{"csp", "default-src 'none'", true},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if got := strings.Contains(out, c.want); got != c.present {
				t.Errorf("contains %q = %v, want %v", c.want, got, c.present)
			}
		})
	}
	if strings.Count(out, "<script>") != 1 {
		t.Errorf("want exactly the page's own script, got %d <script> tags", strings.Count(out, "<script>"))
	}
}

func TestHTMLListsEveryBranch(t *testing.T) {
	out := write(t, "html", fixture(), nil)
	for _, want := range []string{
		`<option value="a3" selected>`, `<option value="b1">`,
		`data-entry="b1" data-parent="k1"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if !regexp.MustCompile(`class="entry user off" id="e-b1"`).MatchString(out) {
		t.Error("the other branch is not hidden by default")
	}
}

func TestMarkdownFencesAndPath(t *testing.T) {
	out := write(t, "markdown", fixture(), nil)
	for _, want := range []string{
		"**Tool call `read`**\n\n```json\n{\n  \"path\": \"README.md\"\n}\n```",
		"````text\nOPENAI_API_KEY=",
		"nested fence\n```\n````",
		"*Compacted: 900 → 120 tokens, kept from r1*",
		"now fix it", "Done.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "other branch question") {
		t.Error("markdown holds an entry off the current path")
	}
}

func TestFence(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", "```"},
		{"a ``` b", "````"},
		{"`````", "``````"},
	}
	for _, c := range cases {
		if got := fence(c.in); got != c.want {
			t.Errorf("fence(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestJSONLRoundTrip(t *testing.T) {
	s := fixture()
	out := write(t, "jsonl", s, nil)
	got, err := ReadJSONL(strings.NewReader(out), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, s) {
		t.Errorf("round trip differs:\n got %+v\nwant %+v", got, s)
	}
}

func TestReadJSONLErrors(t *testing.T) {
	good := write(t, "jsonl", fixture(), nil)
	lines := strings.Split(strings.TrimSuffix(good, "\n"), "\n")
	cases := []struct {
		name, in string
		line     int
		want     string
	}{
		{"empty", "", 1, "input is empty"},
		{"not json", "{", 1, "not a session header"},
		{"wrong first type", `{"type":"message","id":"x"}`, 1, `type "message"`},
		{"unknown version", `{"type":"session","version":3}`, 1, "unsupported version 3"},
		{"bad queue kind", lines[0] + "\n" + `{"type":"queued","id":"q","kind":"soon"}` + "\n", 2, `kind "soon"`},
		{"bad entry", lines[0] + "\n" + lines[1] + "\n{oops\n", 3, "not an entry"},
		{"unknown entry type", lines[0] + "\n" + `{"type":"poem","id":"p"}` + "\n", 2, `unknown entry type "poem"`},
		{"blank line", lines[0] + "\n\n" + lines[1] + "\n", 2, "empty line"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadJSONL(strings.NewReader(c.in), nil)
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Line != c.line || !strings.Contains(fe.Problem, c.want) {
				t.Errorf("err = %v, want line %d with %q", err, c.line, c.want)
			}
		})
	}
}

func TestTreeErrors(t *testing.T) {
	broken := func(edit func(*Session)) Session { s := fixture(); edit(&s); return s }
	cases := []struct {
		name string
		s    Session
		want string
	}{
		{"missing parent", broken(func(s *Session) { s.Entries[1].ParentID = "nope" }), `parent "nope"`},
		{"duplicate id", broken(func(s *Session) { s.Entries[2].ID = "a1" }), "used twice"},
		{"unknown leaf", broken(func(s *Session) { s.Leaf = "zz" }), "leaf is not"},
		{"cycle", broken(func(s *Session) { s.Entries[0].ParentID = "a3" }), "cycle"},
		{"unknown type", broken(func(s *Session) { s.Entries[3].Type = "poem" }), "unknown type"},
	}
	for _, c := range cases {
		for format := range writers {
			t.Run(c.name+"/"+format, func(t *testing.T) {
				var b bytes.Buffer
				err := writers[format](&b, c.s, nil)
				var te *TreeError
				if !errors.As(err, &te) || !strings.Contains(err.Error(), c.want) {
					t.Errorf("err = %v, want a TreeError with %q", err, c.want)
				}
			})
		}
	}
}

func TestSecretAnywhereIsCountedOnce(t *testing.T) {
	placements := map[string]func(*Session){
		"title":          func(s *Session) { s.Title = "about " + ghToken },
		"user prompt":    func(s *Session) { s.Entries[0].Message.Content[0].Text = "token " + ghToken },
		"tool arguments": func(s *Session) { s.Entries[1].Message.Content[2].Arguments["token"] = ghToken },
		"thinking":       func(s *Session) { s.Entries[1].Message.Content[0].Thinking = "use " + ghToken },
		"summary":        func(s *Session) { s.Entries[3].Summary = "saw " + ghToken },
	}
	for name, place := range placements {
		for format := range writers {
			t.Run(name+"/"+format, func(t *testing.T) {
				s := fixture()
				s.Entries[2].Message = &agent.Message{Role: agent.RoleToolResult, ToolCallID: "c1", ToolName: "read",
					Timestamp: at(3), Content: []agent.Content{agent.Text("clean")}}
				place(&s)
				r := NewRedactor()
				out := write(t, format, s, r)
				if strings.Contains(out, ghToken) {
					t.Errorf("the token is in the %s export", format)
				}
				if r.Count() != 1 {
					t.Errorf("Count() = %d, want 1", r.Count())
				}
			})
		}
	}
}

const ghToken = "ghp_FAKEfakeFAKEfake0123456789abcdefABCD"

// TestReadJSONLCheckNamesTheLine: an entry the caller's check refuses fails
// on the line it was read from.
func TestReadJSONLCheckNamesTheLine(t *testing.T) {
	out := write(t, "jsonl", fixture(), nil)
	refuse := func(e Entry) error {
		if e.Type == TypeCompaction {
			return errors.New("compactions are not supported here")
		}
		return nil
	}
	_, err := ReadJSONL(strings.NewReader(out), refuse)
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Line != 5 || !strings.Contains(fe.Problem, "not supported here") {
		t.Fatalf("err = %v, want line 5 (the compaction) refused", err)
	}
}
