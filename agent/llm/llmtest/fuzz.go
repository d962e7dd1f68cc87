package llmtest

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// FuzzBody feeds body to the provider h opens as a 200 event-stream
// response (through BodyTransport, without a network) and checks that the
// stream ends within 5 seconds with a final message: a stop, or an error
// that is structured and not a recovered panic.
func FuzzBody(t *testing.T, h ContractHarness, body []byte) {
	fn := h.stream(t, Conn{URL: "http://fuzz.invalid",
		HTTPClient: &http.Client{Transport: BodyTransport{Status: http.StatusOK, Body: body}}})
	msg := EndsWithin(t, 5*time.Second, fn(context.Background(), h.Model, Prompt, agent.StreamOptions{}))
	switch msg.StopReason {
	case agent.StopReasonStop, agent.StopReasonLength, agent.StopReasonToolUse:
	case agent.StopReasonError:
		if msg.Error == nil || strings.Contains(msg.ErrorMessage, "panicked") {
			t.Fatalf("error = %+v (%s)", msg.Error, msg.ErrorMessage)
		}
	default:
		t.Fatalf("stop reason %q", msg.StopReason)
	}
}
