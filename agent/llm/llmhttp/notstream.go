package llmhttp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/steer-tui/steer/agent"
)

// A successful response whose body is not the event stream asked for is
// nearly always a base URL that points at something other than the API: a
// web server's welcome page, a login or captive portal, a proxy's error page,
// or a server that ignored "stream": true and sent the whole answer as one
// JSON document. The SDKs read such a body as a stream without a single
// event and report an empty answer; NotEventStream says what came back
// instead, in words the failover classifier reads as malformed.

// bodyShape is one kind of body a server may send instead of a stream.
type bodyShape struct {
	name       string   // how the message calls it
	mediaTypes []string // the Content-Types that name it
	opens      []string // how such a body starts, lower-cased
}

// bodyShapes are tried in order, by media type first, then by how the body
// starts (a page is often served as text/plain, or with no type at all).
var bodyShapes = []bodyShape{
	{"an HTML page", []string{"text/html", "application/xhtml+xml"}, []string{"<!doctype html", "<html", "<head", "<body", "<!--"}},
	{"a JSON document", []string{"application/json"}, []string{"{", "["}},
	{"an XML document", []string{"application/xml", "text/xml"}, []string{"<?xml"}},
}

// jsonShape is the shape whose body may be an error object instead.
const jsonShape = "a JSON document"

// sseFields are the field names of an event stream's lines (WHATWG HTML
// §9.2.6); a line that starts with ":" is a comment.
var sseFields = []string{"data", "event", "id", "retry"}

// maxExcerpt bounds the words of the body quoted in the message.
const maxExcerpt = 80

var htmlTitle = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)

// NotEventStream is the error of a successful response whose body is not
// an event stream — an HTML page, a whole JSON document, anything whose
// first line is not a server-sent-event line — or nil: for a failure status,
// a watchdog cut, an empty body, or a body that is a stream (one holding
// only keep-alives too; an empty answer is reported as such). Stream asks it
// when the stream ended without a single item. A JSON body that is an error
// object ({"error": …}, which some proxies send with status 200) is that
// error, classified by its words.
func (x *Exchange) NotEventStream() *agent.ProviderError {
	body := bytes.TrimLeftFunc(bytes.TrimPrefix(x.head, []byte("\uFEFF")), unicode.IsSpace)
	if x.status < 200 || x.status >= 300 || x.TimedOut() || len(body) == 0 || isEventLine(body) {
		return nil
	}
	shape := shapeOf(x.header, body)
	if shape == jsonShape && x.read == len(x.head) && isErrorObject(body) {
		return x.WithHeader(StreamError(body))
	}
	what := shape
	switch {
	case shape == "an HTML page":
		if m := htmlTitle.FindSubmatch(body); m != nil {
			if title := excerpt(m[1]); title != "" {
				what += fmt.Sprintf(" (%q)", title)
			}
		}
	case shape == "":
		what = "something else"
		if t := mediaType(x.header); t != "" {
			what = "a " + t + " body"
		}
		what += fmt.Sprintf(" (%q)", excerpt(firstLineOf(body)))
	}
	return x.WithHeader(&agent.ProviderError{Kind: agent.ErrorMalformed,
		Message: fmt.Sprintf("the server at %s answered with %s, not an event stream: check baseURL", x.url, what),
		Body:    agent.TruncateBody(string(x.head))})
}

// isEventLine reports whether body's first line is a line of an event
// stream: a comment or a known field.
func isEventLine(body []byte) bool {
	line := firstLineOf(body)
	if bytes.HasPrefix(line, []byte(":")) {
		return true
	}
	name, _, _ := bytes.Cut(line, []byte(":"))
	return slices.Contains(sseFields, string(name))
}

// shapeOf names the body by its media type, else by how it starts; "" when
// neither tells.
func shapeOf(header map[string][]string, body []byte) string {
	t := mediaType(header)
	for _, s := range bodyShapes {
		if slices.Contains(s.mediaTypes, t) || (s.name == jsonShape && strings.HasSuffix(t, "+json")) {
			return s.name
		}
	}
	head := strings.ToLower(string(body[:min(len(body), 32)]))
	for _, s := range bodyShapes {
		if slices.ContainsFunc(s.opens, func(o string) bool { return strings.HasPrefix(head, o) }) {
			return s.name
		}
	}
	return ""
}

// mediaType is the response's Content-Type without its parameters,
// lower-cased; "" when there is none, or the stream's own.
func mediaType(header map[string][]string) string {
	var ct string
	if v := header["Content-Type"]; len(v) > 0 {
		ct = v[0]
	}
	t, _, err := mime.ParseMediaType(ct)
	if err != nil || t == "text/event-stream" {
		return ""
	}
	return t
}

// isErrorObject reports whether body is a JSON object with an "error"
// member.
func isErrorObject(body []byte) bool {
	var v struct {
		Error json.RawMessage `json:"error"`
	}
	return json.Unmarshal(body, &v) == nil && len(v.Error) > 0 && string(v.Error) != "null"
}

func firstLineOf(body []byte) []byte {
	line, _, _ := bytes.Cut(body, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r"))
}

// excerpt is s on one line, its spaces collapsed and control characters
// dropped, at most maxExcerpt bytes.
func excerpt(s []byte) string {
	var b strings.Builder
	for _, f := range strings.Fields(string(s)) {
		f = strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return -1
			}
			return r
		}, f)
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f)
	}
	out := b.String()
	if len(out) <= maxExcerpt {
		return out
	}
	cut := maxExcerpt
	for cut > 0 && !utf8.RuneStart(out[cut]) {
		cut--
	}
	return out[:cut] + "…"
}
