package openai

import (
	"bytes"
	"fmt"
	"net/http"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/tidwall/gjson"

	"github.com/steer-tui/steer/agent/llm/jsonscan"
	"github.com/steer-tui/steer/agent/llm/sse"
)

// doneMarker is the data of the event that ends a Chat Completions stream.
var doneMarker = []byte("[DONE]")

// chunkStream is the llmhttp.SDKStream of a response the SDK opened: the SDK
// built, authenticated and sent the request and reports its failure (HTTP
// status, transport) through Err; the body's events are decoded here, in
// place, with the SDK stream's rules: [DONE] ends the stream, an event with
// a top-level "error" member ends it with an *ssestream.StreamError, and an
// event that is not JSON, or JSON but neither an object nor null, ends it
// with an error.
type chunkStream struct {
	opened *ssestream.Stream[sdk.ChatCompletionChunk] // for Err and Close only: it owns the body
	events *sse.Reader                                // nil when the request failed
	parser jsonscan.Parser
	dec    chunkDecoder
	cur    *completionChunk
	err    error
	closed bool
}

// newChunkStream reads the body of resp, the response the SDK put into
// option.WithResponseInto for the request that opened.
func newChunkStream(opened *ssestream.Stream[sdk.ChatCompletionChunk], resp *http.Response) *chunkStream {
	s := &chunkStream{opened: opened, err: opened.Err()}
	if s.err == nil && resp != nil && resp.Body != nil {
		s.events = sse.NewReader(resp.Body)
	}
	return s
}

// Next decodes the next chunk; it reports false at the end of the stream or
// on an error, closing the body.
func (s *chunkStream) Next() bool {
	if s.err != nil || s.events == nil || s.closed {
		return false
	}
	if !s.events.Next() {
		return s.finish(s.events.Err())
	}
	ev := s.events.Event()
	if bytes.HasPrefix(ev.Data, doneMarker) {
		return s.finish(nil)
	}
	v, err := s.parser.Parse(ev.Data)
	if err != nil {
		if e := gjson.GetBytes(ev.Data, "error"); e.Exists() { // an error event cut short
			return s.finish(streamError(ev, e.String()))
		}
		return s.finish(err)
	}
	if k := v.Kind(); k != jsonscan.Object && k != jsonscan.Null { // as the SDK's decoder fails
		return s.finish(fmt.Errorf("a chunk that is not a JSON object: %.40s", bytes.TrimSpace(ev.Data)))
	}
	if e, ok := v.Member("error"); ok {
		msg, isStr := e.Str()
		if !isStr {
			msg = string(e.Raw())
		}
		return s.finish(streamError(ev, msg))
	}
	s.cur = s.dec.decode(v)
	return true
}

// streamError is the error the SDK stream ends with on an error event.
func streamError(ev sse.Event, msg string) error {
	return &ssestream.StreamError{
		Message: fmt.Sprintf("received error while streaming: %s", msg),
		Event:   ssestream.Event{Type: string(ev.Type), Data: bytes.Clone(ev.Data)},
	}
}

func (s *chunkStream) finish(err error) bool {
	s.err = err
	_ = s.Close()
	return false
}

// Current is the chunk Next decoded, valid until the next call to Next.
func (s *chunkStream) Current() *completionChunk { return s.cur }

// Err is the failure of the request or of the stream.
func (s *chunkStream) Err() error { return s.err }

// Close closes the body.
func (s *chunkStream) Close() error {
	s.closed = true
	return s.opened.Close()
}
