package anthropic

import (
	"errors"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmhttp"
)

// failure turns the error that ended a request or its stream into the
// kernel's error. An error event inside the stream (overloaded_error,
// api_error) arrives as *anthropic.Error with the stream's status, 200, and
// the event as its raw JSON: it is classified from that body. An HTTP status
// arrives as *anthropic.Error too, but its body is read from the exchange.
// Everything else — watchdog, network, an event that does not parse — the
// exchange classifies.
func failure(x *llmhttp.Exchange, err error) *agent.ProviderError {
	var ae *sdk.Error
	if errors.As(err, &ae) && ae.StatusCode < 400 && !x.TimedOut() {
		return llmhttp.StreamError([]byte(ae.RawJSON()))
	}
	return x.Failure(err)
}
