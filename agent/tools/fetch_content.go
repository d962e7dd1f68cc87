package tools

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// The formats fetch returns a page in.
const (
	// FormatMarkdown converts HTML to Markdown; other text comes as is.
	FormatMarkdown = "markdown"
	// FormatText drops HTML's tags and keeps its text.
	FormatText = "text"
	// FormatRaw returns the body as the server sent it (made UTF-8).
	FormatRaw = "raw"
)

// contentKind is what fetch makes of a body.
type contentKind int

const (
	kindBinary contentKind = iota // refused
	kindText                      // returned as is
	kindHTML                      // converted unless raw
)

// textTypes are the media types outside text/* that fetch reads as text.
var textTypes = map[string]bool{
	"application/json": true, "application/xml": true, "application/javascript": true,
	"application/x-javascript": true, "application/ecmascript": true, "application/yaml": true,
	"application/x-yaml": true, "application/toml": true, "application/x-ndjson": true,
	"application/sql": true, "application/graphql": true, "application/x-sh": true,
}

// mediaType is the media type of a Content-Type header, lowercased, ""
// when it has none.
func mediaType(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt, _, _ = strings.Cut(contentType, ";")
	}
	return strings.ToLower(strings.TrimSpace(mt))
}

// classify says what fetch makes of a body of media type mt.
func classify(mt string) contentKind {
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		return kindHTML
	case strings.HasPrefix(mt, "text/") || textTypes[mt] ||
		strings.HasSuffix(mt, "+json") || strings.HasSuffix(mt, "+xml"):
		return kindText
	}
	return kindBinary
}

// sniffed says whether the body's own bytes decide its type: when the
// server names none, or only "some bytes".
func sniffed(mt string) bool { return mt == "" || mt == "application/octet-stream" }

// readCapped reads at most limit bytes of r, and one more to tell whether
// there was more (cut): never the whole of a large body.
func readCapped(r io.Reader, limit int, sizeHint int64) (body []byte, cut bool, err error) {
	var buf bytes.Buffer
	if sizeHint > 0 {
		buf.Grow(int(min(sizeHint, int64(limit)+1)))
	}
	_, err = buf.ReadFrom(io.LimitReader(r, int64(limit)+1))
	body = buf.Bytes()
	if len(body) > limit {
		return body[:limit], true, err
	}
	return body, false, err
}

// toUTF8 decodes body from the charset its Content-Type or byte order mark
// names. A body that names none there is read as UTF-8 when it is valid
// UTF-8 (cut: but for a rune cut at its end), else in the charset its
// <meta> names or, naming none, windows-1252: the charset package alone
// would guess windows-1252 from a first kilobyte of plain ASCII.
func toUTF8(body []byte, contentType string, cut bool) []byte {
	enc, name, certain := charset.DetermineEncoding(body, contentType)
	valid := body
	if cut {
		valid = trimCutRune(body)
	}
	if name != "utf-8" && (certain || !utf8.Valid(valid)) {
		if out, err := enc.NewDecoder().Bytes(body); err == nil {
			body = out
		}
	}
	return bytes.TrimPrefix(body, []byte(byteOrderMark))
}

// byteOrderMark is U+FEFF in UTF-8, which a decoded body may start with.
const byteOrderMark = "\uFEFF"

// trimCutRune drops the start of a rune a byte cut left at the end of b.
func trimCutRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// render is body in format: HTML converted to Markdown or to its text
// (base, the page's URL, makes relative links absolute), anything else as
// it is.
func render(body []byte, kind contentKind, format, base string) (string, error) {
	if kind != kindHTML || format == FormatRaw {
		return string(body), nil
	}
	if format == FormatText {
		return htmlText(body), nil
	}
	md, err := htmltomarkdown.ConvertString(string(body), converter.WithDomain(base))
	if err != nil {
		return "", fmt.Errorf("cannot convert the page to Markdown: %w", err)
	}
	return md, nil
}

// skippedTags hold no text a reader sees.
var skippedTags = map[string]bool{
	"script": true, "style": true, "noscript": true, "template": true, "svg": true,
}

// blockTags start and end a line of text.
var blockTags = map[string]bool{
	"p": true, "div": true, "br": true, "li": true, "tr": true, "h1": true, "h2": true, "h3": true,
	"h4": true, "h5": true, "h6": true, "pre": true, "blockquote": true, "section": true,
	"article": true, "header": true, "footer": true, "nav": true, "table": true, "ul": true,
	"ol": true, "dd": true, "dt": true, "hr": true, "title": true, "main": true, "aside": true,
}

// cellTags are set apart by a space.
var cellTags = map[string]bool{"td": true, "th": true}

// collapseSpace makes each run of white space in s one space, so that
// text split by inline tags joins as it reads.
func collapseSpace(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}

// htmlText is the text of an HTML document: tags dropped, what a reader
// does not see (scripts, styles) left out, a block element on
// lines of its own, runs of spaces and blank lines made one. The head is
// kept, its title being the one text in it: skipping it would lose the
// whole page where the optional </head> is left out.
func htmlText(doc []byte) string {
	z := html.NewTokenizer(bytes.NewReader(doc))
	var b strings.Builder
	skip := 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return tidyLines(b.String())
		case html.TextToken:
			if skip == 0 {
				b.WriteString(collapseSpace(string(z.Text())))
			}
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			tag := string(name)
			if skippedTags[tag] {
				switch tt {
				case html.StartTagToken:
					skip++
				case html.EndTagToken:
					skip = max(skip-1, 0)
				}
			}
			switch {
			case blockTags[tag]:
				b.WriteByte('\n')
			case cellTags[tag]:
				b.WriteByte(' ')
			}
		}
	}
}

// tidyLines makes the spaces of every line single, and leaves at most one blank line between
// two lines of text.
func tidyLines(s string) string {
	var out []string
	blank := false
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// cutText is s cut to at most n bytes, at a rune boundary.
func cutText(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	return string(trimCutRune([]byte(s[:n]))), true
}

// sizeText is n bytes for a person: "512 bytes", "100 KB", "5.0 MB".
func sizeText(n int64) string {
	const kb, mb = 1024, 1024 * 1024
	switch {
	case n < kb:
		return fmt.Sprintf("%d bytes", n)
	case n < mb && n%kb == 0:
		return fmt.Sprintf("%d KB", n/kb)
	case n < mb:
		return fmt.Sprintf("%.1f KB", float64(n)/kb)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/mb)
}

// sniff is the media type of a body whose server named none that helps.
func sniff(body []byte) string { return mediaType(http.DetectContentType(body)) }
