package llmhttp

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

func TestNotEventStream(t *testing.T) {
	const url = "http://127.0.0.1:8080/v1/chat/completions"
	cases := []struct {
		name        string
		status      int
		contentType string
		body        string
		want        string // "" for no error; else words of its message
		kind        agent.ErrorKind
	}{
		{"an event stream", 200, "text/event-stream", "data: {}\n\n", "", ""},
		{"keep-alives only", 200, "text/event-stream", ": ping\n\n", "", ""},
		{"an event line after a byte-order mark and blank lines", 200, "", "\uFEFF\n\nevent: ping\n", "", ""},
		{"an empty body is an empty answer", 200, "text/html", "  \n", "", ""},
		{"a failure status is its own error", 404, "text/html", "<html></html>", "", ""},
		{"html by type, with its title", 200, "text/html; charset=utf-8", "<html><title>\n  Sign in\n</title></html>",
			`the server at ` + url + ` answered with an HTML page ("Sign in"), not an event stream: check baseURL`, agent.ErrorMalformed},
		{"html by its start", 200, "", "<!DOCTYPE html><p>hi</p>", "answered with an HTML page, not an event stream", agent.ErrorMalformed},
		{"json by type", 200, "application/json", `{"id":"x"}`, "answered with a JSON document, not an event stream: check baseURL", agent.ErrorMalformed},
		{"json by a +json type", 200, "application/problem+json", `{"title":"x"}`, "answered with a JSON document", agent.ErrorMalformed},
		{"a json array by its start", 200, "", `[1,2]`, "answered with a JSON document", agent.ErrorMalformed},
		{"xml", 200, "application/xml", `<?xml version="1.0"?><a/>`, "answered with an XML document", agent.ErrorMalformed},
		{"plain text quotes its first line", 200, "text/plain", "Not here\nsecond line", `answered with a text/plain body ("Not here")`, agent.ErrorMalformed},
		{"no type at all", 200, "", "hello", `answered with something else ("hello")`, agent.ErrorMalformed},
		{"a json error object is that error", 200, "application/json", `{"error":{"message":"Invalid API key","type":"authentication_error"}}`,
			"Invalid API key", agent.ErrorStream},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := Start(context.Background(), "openai", Windows{Idle: time.Minute}, nil)
			defer x.Stop()
			x.status, x.url = c.status, url
			x.header = map[string][]string{"Content-Type": {c.contentType}}
			x.keepHead([]byte(c.body))
			e := x.NotEventStream()
			switch {
			case c.want == "" && e != nil:
				t.Fatalf("error %+v, want none", e)
			case c.want == "":
				return
			case e == nil:
				t.Fatalf("no error, want %q", c.want)
			}
			if e.Kind != c.kind || !strings.Contains(e.Message, c.want) {
				t.Errorf("error %s %q, want %s saying %q", e.Kind, e.Message, c.kind, c.want)
			}
			if e.Body == "" || e.Header == nil {
				t.Errorf("error %+v keeps no body excerpt or header", e)
			}
		})
	}
}

// TestNotEventStreamJSONCutOff: a JSON body longer than the head kept is
// not read as an error object, whatever its start says.
func TestNotEventStreamJSONCutOff(t *testing.T) {
	x := Start(context.Background(), "openai", Windows{Idle: time.Minute}, nil)
	defer x.Stop()
	x.status = 200
	x.keepHead([]byte(`{"error":{"message":"` + strings.Repeat("x", agent.MaxErrorBody) + `"}}`))
	if e := x.NotEventStream(); e == nil || e.Kind != agent.ErrorMalformed || len(e.Body) != agent.MaxErrorBody {
		t.Fatalf("error %+v", e)
	}
}
