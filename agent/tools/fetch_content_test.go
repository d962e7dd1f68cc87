package tools

import (
	"bytes"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		contentType string
		want        contentKind
	}{
		{"text/html; charset=utf-8", kindHTML},
		{"TEXT/HTML", kindHTML},
		{"application/xhtml+xml", kindHTML},
		{"text/plain", kindText},
		{"text/markdown; charset=utf-8", kindText},
		{"text/csv", kindText},
		{"application/json", kindText},
		{"application/ld+json", kindText},
		{"application/rss+xml", kindText},
		{"application/javascript", kindText},
		{"image/png", kindBinary},
		{"application/pdf", kindBinary},
		{"application/zip", kindBinary},
		{"application/octet-stream", kindBinary},
		{"video/mp4", kindBinary},
	} {
		t.Run(tc.contentType, func(t *testing.T) {
			if got := classify(mediaType(tc.contentType)); got != tc.want {
				t.Errorf("classify(%q) = %v, want %v", tc.contentType, got, tc.want)
			}
		})
	}
}

const samplePage = `<!doctype html><html><head><title>The Title</title><style>p{color:red}</style>
<script>var hidden = 1;</script></head><body><h1>Hello</h1>
<p>Some <b>bold</b> and a <a href="/docs/x">link</a>.</p>
<ul><li>one</li><li>two</li></ul><table><tr><td>a</td><td>b</td></tr></table>
<pre><code>go test ./...</code></pre></body></html>`

func TestRender(t *testing.T) {
	for _, tc := range []struct {
		name, format string
		kind         contentKind
		body         string
		has, hasNot  []string
	}{
		{name: "markdown", format: FormatMarkdown, kind: kindHTML, body: samplePage,
			has:    []string{"# Hello", "Some **bold** and a [link](https://example.com/docs/x).", "- one\n- two", "```\ngo test ./...\n```"},
			hasNot: []string{"<p>", "hidden", "color:red"}},
		{name: "text", format: FormatText, kind: kindHTML, body: samplePage,
			has:    []string{"The Title\n\nHello\n\nSome bold and a link.\n\none\n\ntwo\n\na b", "go test ./..."},
			hasNot: []string{"<", "hidden", "color:red", "**"}},
		{name: "raw", format: FormatRaw, kind: kindHTML, body: samplePage, has: []string{samplePage}},
		{name: "text that is not HTML stays as it is", format: FormatMarkdown, kind: kindText, body: `{"a": "<b>"}`, has: []string{`{"a": "<b>"}`}},
		{name: "text of a page whose </head> is left out", format: FormatText, kind: kindHTML,
			body: "<html><head><title>T</title><body><p>kept</p>", has: []string{"T\n\nkept"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := render([]byte(tc.body), tc.kind, tc.format, "https://example.com/a/b")
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.has {
				if !strings.Contains(got, s) {
					t.Errorf("render = %q, want it to hold %q", got, s)
				}
			}
			for _, s := range tc.hasNot {
				if strings.Contains(got, s) {
					t.Errorf("render = %q, want no %q", got, s)
				}
			}
		})
	}
}

// countingReader serves endless bytes and counts those read.
type countingReader struct{ n int }

func (r *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	r.n += len(p)
	return len(p), nil
}

// TestReadCappedReadsNoMore: of an endless body, readCapped reads the cap
// and one byte more, whatever the size hint says.
func TestReadCappedReadsNoMore(t *testing.T) {
	for _, tc := range []struct {
		name  string
		limit int
		hint  int64
	}{{"no hint", 1000, -1}, {"a hint far above the cap", 1000, 5 << 20}, {"a hint below", 100 << 10, 10}} {
		t.Run(tc.name, func(t *testing.T) {
			r := &countingReader{}
			body, cut, err := readCapped(r, tc.limit, tc.hint)
			if err != nil || !cut || len(body) != tc.limit {
				t.Errorf("readCapped = %d bytes, cut %v, %v; want %d, cut", len(body), cut, err, tc.limit)
			}
			if r.n != tc.limit+1 {
				t.Errorf("read %d bytes, want %d", r.n, tc.limit+1)
			}
			if cap(body) > 2*(tc.limit+1)+512 {
				t.Errorf("buffer of %d bytes for a cap of %d", cap(body), tc.limit)
			}
		})
	}
	body, cut, err := readCapped(strings.NewReader("short"), 10, 5)
	if string(body) != "short" || cut || err != nil {
		t.Errorf("a short body: %q, cut %v, %v", body, cut, err)
	}
}

func TestToUTF8(t *testing.T) {
	asciiKB := strings.Repeat("a", 2000)
	for _, tc := range []struct {
		name, contentType string
		body              []byte
		cut               bool
		want              string
	}{
		{"latin-1 named by the header", "text/plain; charset=iso-8859-1", []byte("caf\xe9"), false, "café"},
		{"latin-1 named by a meta tag", "text/html", []byte(`<meta charset="windows-1252"><p>caf` + "\xe9"), false, `<meta charset="windows-1252"><p>café`},
		{"UTF-8 named", "text/plain; charset=utf-8", []byte("café"), false, "café"},
		{"UTF-8 after a kilobyte of ASCII", "text/html", []byte(asciiKB + "café"), false, asciiKB + "café"},
		{"UTF-8 cut inside a rune", "text/plain", []byte(asciiKB + "caf\xc3"), true, asciiKB + "caf\xc3"},
		{"neither named nor UTF-8", "text/plain", []byte(asciiKB + "caf\xe9"), false, asciiKB + "café"},
		{"a UTF-16 byte order mark", "text/plain", []byte("\xff\xfeh\x00i\x00"), false, "hi"},
		{"a UTF-8 byte order mark", "text/plain", []byte("\xef\xbb\xbfhi"), false, "hi"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(toUTF8(tc.body, tc.contentType, tc.cut)); got != tc.want {
				t.Errorf("toUTF8 = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCutText(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
		cut  bool
	}{
		{"hello", 10, "hello", false},
		{"hello", 5, "hello", false},
		{"hello", 3, "hel", true},
		{"héllo", 2, "h", true}, // é is two bytes: no half of it
		{"日本", 4, "日", true},
	} {
		got, cut := cutText(tc.s, tc.n)
		if got != tc.want || cut != tc.cut {
			t.Errorf("cutText(%q, %d) = %q, %v; want %q, %v", tc.s, tc.n, got, cut, tc.want, tc.cut)
		}
	}
}

func TestSizeText(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0 bytes"}, {1023, "1023 bytes"}, {1024, "1 KB"}, {100 << 10, "100 KB"}, {1536, "1.5 KB"},
		{1 << 20, "1.0 MB"}, {5 << 20, "5.0 MB"}, {5<<20 + 300<<10, "5.3 MB"}} {
		if got := sizeText(tc.n); got != tc.want {
			t.Errorf("sizeText(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestSniff(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	for _, tc := range []struct {
		body []byte
		want contentKind
	}{{png, kindBinary}, {[]byte("plain words\n"), kindText}, {[]byte("<!DOCTYPE html><p>x"), kindHTML},
		{bytes.Repeat([]byte{0, 1, 2, 3}, 10), kindBinary}} {
		if got := classify(sniff(tc.body)); got != tc.want {
			t.Errorf("classify(sniff(%q)) = %v, want %v", tc.body, got, tc.want)
		}
	}
}
