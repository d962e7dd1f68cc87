package openai

import (
	"bytes"
	"errors"

	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmhttp"
)

// failure turns the error that ended a request or its stream into the
// kernel's error. An HTTP status arrives as *openai.Error, but its body is
// read from the exchange, which keeps it whatever its shape (the SDK fails to
// build an *openai.Error from a body that is not JSON). An error event inside
// the stream ({"error": {...}}) arrives as *ssestream.StreamError with the
// event's data. Everything else — watchdog, network, a chunk that does not
// parse — the exchange classifies.
func failure(x *llmhttp.Exchange, err error) *agent.ProviderError {
	var se *ssestream.StreamError
	if errors.As(err, &se) && !x.TimedOut() {
		return llmhttp.StreamError(bytes.TrimSpace(se.Event.Data))
	}
	return x.Failure(err)
}
