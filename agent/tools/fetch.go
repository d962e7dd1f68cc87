package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/steer-tui/steer/agent"
)

// The sizes of a fetch result.
const (
	// defaultFetchBytes is what fetch returns when the model sets no maxBytes.
	defaultFetchBytes = 100 * 1024
	// maxFetchBytes is the most one fetch returns; a larger maxBytes is
	// lowered to it.
	maxFetchBytes = 1024 * 1024
)

// fetchAccept prefers a page in the forms fetch returns best.
const fetchAccept = "text/markdown, text/html;q=0.9, text/plain;q=0.8, application/json;q=0.8, */*;q=0.5"

// FetchDetails describe what a fetch call returned, for the UI.
type FetchDetails struct {
	// URL is the address asked for; FinalURL where redirects led, when
	// they led elsewhere.
	URL      string `json:"url"`
	FinalURL string `json:"finalUrl,omitempty"`
	// Status is the HTTP status code, ContentType the body's media type.
	Status      int    `json:"status"`
	ContentType string `json:"contentType"`
	// Format is the format of the text returned (FormatMarkdown, …).
	Format string `json:"format"`
	// Bytes counts the text returned; PageBytes is the body's size as the
	// server gave it, -1 when it gave none.
	Bytes     int   `json:"bytes"`
	PageBytes int64 `json:"pageBytes"`
	// Truncated is set when the result holds only the head of the page.
	Truncated bool `json:"truncated"`
}

// WithFetchAllowPrivate lets fetch reach loopback, private, link-local and
// the other addresses it refuses by default (tools.fetch.allowPrivate).
func WithFetchAllowPrivate(allow bool) Option {
	return func(o *options) { o.fetchPrivate = allow }
}

type fetchTool struct{ client *http.Client }

// Fetch returns the fetch tool, which reads one http(s) page and returns
// it as Markdown, text or as it is, cut to maxBytes. It connects only to
// public addresses unless WithFetchAllowPrivate(true) (see netGuard).
func Fetch(opts ...Option) agent.Tool {
	return newFetch(newNetGuard(optionsOf(opts).fetchPrivate))
}

func newFetch(g netGuard) fetchTool { return fetchTool{client: newFetchClient(g)} }

var fetchSchema = json.RawMessage(`{
	"type": "object",
	"properties": {
		"url": {"type": "string", "description": "The http or https URL to fetch."},
		"format": {"type": "string", "enum": ["markdown", "text", "raw"], "description": "markdown (default): HTML converted to Markdown; text: HTML's text without tags; raw: the body as sent."},
		"maxBytes": {"type": "integer", "minimum": 1, "description": "Most bytes to return (default 102400, at most 1048576)."}
	},
	"required": ["url"],
	"additionalProperties": false
}`)

func (fetchTool) Spec() agent.ToolSpec {
	return agent.ToolSpec{
		Name: "fetch",
		Description: fmt.Sprintf("Fetch a web page over http or https and return it as Markdown (HTML is "+
			"converted; format text drops the tags, raw returns the body as sent). Returns at most maxBytes "+
			"(default %s, at most %s): the head of a longer page, saying where it was cut. Follows up to %d "+
			"redirects. Binary content (images, PDFs, archives) is refused, and so are local and private "+
			"network addresses unless the user's config allows them.",
			sizeText(defaultFetchBytes), sizeText(maxFetchBytes), maxRedirects),
		Parameters: fetchSchema,
	}
}

// Describe counts a fetch as mutating: it reaches the network, which the
// approval policy treats as it treats a change, so that auto runs it, ask
// asks (an "always" answer grants WebFetch(domain:host)) and never refuses.
func (fetchTool) Describe(args map[string]any) Access {
	return Access{Mutating: true, Summary: "fetch " + clip(stringArg(args, "url"), summaryLen)}
}

func (t fetchTool) Execute(ctx context.Context, _ string, args map[string]any, _ agent.ToolUpdate) (agent.ToolResult, error) {
	raw := strings.TrimSpace(stringArg(args, "url"))
	u, err := url.Parse(raw)
	if err != nil {
		return agent.ErrorResult(fmt.Sprintf("refused: %q is not a URL: %v", raw, err)), nil
	}
	if why := schemeError(u); why != "" {
		return agent.ErrorResult(fmt.Sprintf("refused: %s: %s", clip(raw, summaryLen), why)), nil
	}
	format := stringArg(args, "format")
	if format == "" {
		format = FormatMarkdown
	}
	limit, notes := fetchLimit(intArg(args, "maxBytes", defaultFetchBytes))

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return agent.ErrorResult(fmt.Sprintf("refused: %s: %v", u.Redacted(), err)), nil
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", fetchAccept)
	resp, err := t.client.Do(req)
	if err != nil {
		return agent.ErrorResult(fetchError(u, err)), nil
	}
	defer resp.Body.Close()
	return fetchedPage(resp, u.String(), format, limit, notes), nil
}

// fetchLimit is the maxBytes a call gets, with a note when it asked for
// more than fetch returns.
func fetchLimit(asked int) (int, []string) {
	if asked > maxFetchBytes {
		return maxFetchBytes, []string{fmt.Sprintf("maxBytes %d is more than fetch returns; lowered to %s",
			asked, sizeText(maxFetchBytes))}
	}
	return max(asked, 1), nil
}

// fetchError says why a fetch of u got no answer.
func fetchError(u *url.URL, err error) string {
	var addr *AddressError
	var redirect *RedirectError
	var ue *url.Error
	switch {
	case errors.As(err, &addr):
		return addr.Error()
	case errors.As(err, &redirect):
		return "fetch " + u.Redacted() + ": " + redirect.Msg
	case errors.As(err, &ue) && ue.Timeout():
		return fmt.Sprintf("fetch %s: no answer within %s", u.Redacted(), fetchTimeout)
	case errors.As(err, &ue):
		return "fetch " + u.Redacted() + ": " + ue.Err.Error()
	}
	return "fetch " + u.Redacted() + ": " + err.Error()
}

// fetchedPage reads resp's body within limit and renders it in format.
func fetchedPage(resp *http.Response, asked, format string, limit int, notes []string) agent.ToolResult {
	final := resp.Request.URL
	contentType := resp.Header.Get("Content-Type")
	mt := mediaType(contentType)
	if !sniffed(mt) && classify(mt) == kindBinary {
		return agent.ErrorResult(binaryRefusal(final, mt))
	}
	body, cut, err := readCapped(resp.Body, limit, resp.ContentLength)
	if err != nil {
		return agent.ErrorResult(fmt.Sprintf("fetch %s: reading the page: %v", final.Redacted(), err))
	}
	if sniffed(mt) {
		if mt = sniff(body); classify(mt) == kindBinary {
			return agent.ErrorResult(binaryRefusal(final, mt))
		}
	}
	kind := classify(mt)
	text, err := render(toUTF8(body, contentType, cut), kind, format, final.String())
	if err != nil {
		return agent.ErrorResult(fmt.Sprintf("fetch %s: %v", final.Redacted(), err))
	}
	full := len(text)
	text, cutOut := cutText(text, limit)
	d := FetchDetails{URL: asked, Status: resp.StatusCode, ContentType: mt, Format: format,
		Bytes: len(text), PageBytes: resp.ContentLength, Truncated: cut || cutOut}
	if kind != kindHTML {
		d.Format = FormatRaw
	}
	if final.String() != asked {
		d.FinalURL = final.String()
		notes = append(notes, "redirected to "+final.Redacted())
	}
	switch {
	case cut:
		notes = append(notes, cutNote(limit, "of "+sizeOf(resp.ContentLength)))
	case cutOut:
		notes = append(notes, cutNote(limit, fmt.Sprintf("of %s of %s", sizeText(int64(full)), formatNames[d.Format])))
	}
	if strings.TrimSpace(text) == "" {
		text = "(empty page)"
	}
	if len(notes) > 0 {
		text += "\n\n[" + strings.Join(notes, "; ") + "]"
	}
	res := agent.ToolResult{Content: []agent.Content{agent.Text(text)}, Details: d}
	if resp.StatusCode >= http.StatusBadRequest {
		res.Content[0] = agent.Text("HTTP " + resp.Status + "\n\n" + text)
		res.IsError = true
	}
	return res
}

// formatNames name a result's format in a cut note.
var formatNames = map[string]string{FormatMarkdown: "Markdown", FormatText: "text", FormatRaw: "text"}

// sizeOf is a body's size as the server gave it.
func sizeOf(n int64) string {
	if n < 0 {
		return "a page whose size the server did not give"
	}
	return sizeText(n)
}

// cutNote names the cap that cut a result, and how to see more.
func cutNote(limit int, of string) string {
	note := fmt.Sprintf("cut at %s %s: this is its head", sizeText(int64(limit)), of)
	if limit < maxFetchBytes {
		note += fmt.Sprintf("; raise maxBytes (up to %s) for more", sizeText(maxFetchBytes))
	}
	return note
}

// binaryRefusal is what fetch says of a body it does not read.
func binaryRefusal(u *url.URL, mt string) string {
	return fmt.Sprintf("refused: %s is %s, which fetch does not read; it returns web pages, text and JSON",
		u.Redacted(), mt)
}
