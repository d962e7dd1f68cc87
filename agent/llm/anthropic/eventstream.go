package anthropic

import (
	"bytes"
	"fmt"
	"net/http"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"

	"github.com/steer-tui/steer/agent/llm/jsonscan"
	ssewire "github.com/steer-tui/steer/agent/llm/sse" // the tests have a func named sse
)

// eventStream is the llmhttp.SDKStream of a response the SDK opened: the SDK
// built, authenticated and sent the request and reports its failure (HTTP
// status, transport) through Err; the body's events are decoded here, in
// place, with the SDK stream's rules: pings, untyped events and events
// without data are skipped, an "error" event ends the stream with an
// *anthropic.Error carrying the response's status (200) and the event's
// JSON, and an event that is not JSON ends it with a syntax error.
type eventStream struct {
	opened *ssestream.Stream[sdk.MessageStreamEventUnion] // for Err and Close only: it owns the body
	resp   *http.Response
	events *ssewire.Reader // nil when the request failed
	parser jsonscan.Parser
	dec    eventDecoder
	cur    *messageEvent
	err    error
}

// newEventStream reads the body of resp, the response the SDK put into
// option.WithResponseInto for the request that opened.
func newEventStream(opened *ssestream.Stream[sdk.MessageStreamEventUnion], resp *http.Response) *eventStream {
	s := &eventStream{opened: opened, resp: resp, err: opened.Err()}
	if s.err == nil && resp != nil && resp.Body != nil {
		s.events = ssewire.NewReader(resp.Body)
	}
	return s
}

// Next decodes the next event; it reports false at the end of the stream or
// on an error.
func (s *eventStream) Next() bool {
	if s.err != nil || s.events == nil {
		return false
	}
	for s.events.Next() {
		ev := s.events.Event()
		data := bytes.TrimSuffix(ev.Data, []byte("\n"))
		switch string(ev.Type) {
		case "ping", "":
			continue
		case "error":
			s.err = s.apiError(data)
			return false
		}
		if len(data) == 0 {
			continue
		}
		v, err := s.parser.Parse(ev.Data)
		if err != nil {
			s.err = err
			return false
		}
		s.cur = s.dec.decode(v)
		return true
	}
	s.err = s.events.Err()
	return false
}

// apiError is the error the SDK stream ends with on an error event.
func (s *eventStream) apiError(data []byte) error {
	r := s.resp
	if r == nil || r.Request == nil { // the SDK builds its error from the request
		return fmt.Errorf("received error while streaming: %s", data)
	}
	e := &sdk.Error{Request: r.Request, Response: r, StatusCode: r.StatusCode,
		RequestID: r.Header.Get("request-id"), WorkspaceID: r.Header.Get("anthropic-workspace-id")}
	if e.UnmarshalJSON(bytes.Clone(data)) != nil {
		return fmt.Errorf("received error while streaming: %s", data)
	}
	return e
}

// Current is the event Next decoded, valid until the next call to Next.
func (s *eventStream) Current() *messageEvent { return s.cur }

// Err is the failure of the request or of the stream.
func (s *eventStream) Err() error { return s.err }

// Close closes the body.
func (s *eventStream) Close() error { return s.opened.Close() }
