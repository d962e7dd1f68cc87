package anthropic

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm/llmtest"
	"github.com/steer-tui/steer/failover"
)

// harness plugs the provider into the conformance suites.
func harness() llmtest.HTTPHarness {
	return llmtest.HTTPHarness{
		ContractHarness: llmtest.ContractHarness{
			Model: testModel,
			Open: func(c llmtest.Conn) (agent.StreamFn, error) {
				p, err := New(Config{BaseURL: c.URL, APIKey: c.APIKey, IdleTimeout: c.IdleTimeout, HTTPClient: c.HTTPClient, Now: llmtest.Clock})
				if err != nil {
					return nil, err
				}
				return p.Stream, nil
			},
			Wire:      wire,
			ErrorJSON: errorJSON,
		},
		Errors:   httpErrors,
		Classify: func(e *agent.ProviderError) string { return failover.ClassifyError(e, nil).String() },
		// The recorded overloaded stream covers overloaded_error.
		MidStream: llmtest.MidStreamError{
			Event: sse("error", `{"type":"error","error":{"type":"api_error","message":"Internal server error"},"request_id":"req_9"}`),
			Type:  "api_error", Message: "Internal server error", Excerpt: "req_9",
		},
		KeepAlive: sse("ping", `{"type": "ping"}`),
		BadEvent:  "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"oops\"\n\n",
		Env: map[string]string{
			"ANTHROPIC_API_KEY":    "sk-ant-from-the-environment-0000",
			"ANTHROPIC_AUTH_TOKEN": "sk-ant-token-from-the-environment",
			"ANTHROPIC_BASE_URL":   "http://127.0.0.1:1/not-here",
		},
		// The key goes as a bearer token (the SDK's way) and as X-Api-Key (for
		// proxies); both must carry the same key.
		Credentials: func(r *http.Request) string {
			bearer := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
			if apiKey := r.Header.Get("X-Api-Key"); apiKey != bearer {
				return "mismatch: X-Api-Key " + apiKey + ", bearer " + bearer
			}
			return bearer
		},
	}
}

// errorJSON is Anthropic's error body; the code goes in details.error_code.
func errorJSON(typ, code, message string) string {
	e := map[string]any{"type": typ, "message": message}
	if code != "" {
		e["details"] = map[string]any{"error_code": code}
	}
	raw, _ := json.Marshal(map[string]any{"type": "error", "error": e})
	return string(raw)
}

// httpErrors are the error bodies the Messages API sends.
var httpErrors = []llmtest.HTTPErrorCase{
	{Name: "429 rate limit", Status: 429,
		Body: `{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 50,000 input tokens per minute."},"request_id":"req_1"}`,
		Type: "rate_limit_error", Message: "This request would exceed the rate limit for your organization of 50,000 input tokens per minute."},
	{Name: "401 bad key", Status: 401,
		Body: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_2"}`,
		Type: "authentication_error", Message: "invalid x-api-key"},
	{Name: "400 prompt too long", Status: 400,
		Body: `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`,
		Type: "invalid_request_error", Message: "prompt is too long: 210000 tokens > 200000 maximum"},
	{Name: "400 billing with an error code", Status: 400,
		Body: `{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API.","details":{"error_code":"credit_balance_too_low"}}}`,
		Type: "invalid_request_error", Code: "credit_balance_too_low", Message: "Your credit balance is too low to access the Anthropic API."},
	{Name: "500 api error", Status: 500,
		Body: `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`,
		Type: "api_error", Message: "Internal server error"},
	{Name: "529 overloaded", Status: 529,
		Body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
		Type: "overloaded_error", Message: "Overloaded"},
}

// TestContract runs the StreamFn conformance suite.
func TestContract(t *testing.T) { llmtest.RunContract(t, harness().ContractHarness) }

// TestHTTP runs the HTTP provider suite.
func TestHTTP(t *testing.T) { llmtest.RunHTTP(t, harness()) }

// recordedUsage is the usage each recording reports in message_start and
// message_delta; the sidecars do not repeat it.
var recordedUsage = map[string]agent.Usage{
	"anthropic_text":                               {Input: 16, Output: 38},
	"anthropic_thinking_signature_tool_use":        {Input: 424, Output: 119},
	"anthropic_midstream_overloaded_RECONSTRUCTED": {Input: 16, Output: 5},
}

// TestRecordedStreams replays every recorded Messages stream, and checks
// the usage each recording reports.
func TestRecordedStreams(t *testing.T) {
	llmtest.ReplayFixtures(t, harness().ContractHarness, llmtest.Recordings{
		API: "anthropic-messages",
		Stops: map[string]agent.StopReason{
			"end_turn":   agent.StopReasonStop,
			"max_tokens": agent.StopReasonLength,
			"tool_use":   agent.StopReasonToolUse,
		},
		Check: func(t *testing.T, fx llmtest.Fixture, msg agent.Message) {
			u, ok := recordedUsage[fx.Name]
			if !ok {
				t.Fatalf("no recorded usage for %s: add it to recordedUsage", fx.Name)
			}
			if msg.Usage.Input != u.Input || msg.Usage.Output != u.Output || msg.Usage.CacheRead != 0 || msg.Usage.CacheWrite != 0 {
				t.Errorf("usage = %+v, want %+v", msg.Usage, u)
			}
		},
	})
}
