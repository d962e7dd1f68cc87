package openai

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
		MidStream: llmtest.MidStreamError{
			Event: `data: {"error":{"message":"upstream overloaded","type":"overloaded_error","code":"overloaded"}}` + "\n\n",
			Type:  "overloaded_error", Code: "overloaded", Message: "upstream overloaded", Excerpt: "upstream overloaded",
		},
		BadEvent: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"oops\"\n\n",
		// Proxies keep a stalled stream busy with chunks that carry nothing.
		KeepAlive: emptyChunk,
		Env: map[string]string{
			"OPENAI_API_KEY":  "sk-from-the-environment-0000",
			"OPENAI_BASE_URL": "http://127.0.0.1:1/not-here",
		},
		Credentials: func(r *http.Request) string {
			auth := r.Header.Get("Authorization")
			if key, ok := strings.CutPrefix(auth, "Bearer "); ok || auth == "" {
				return key
			}
			return "not a bearer token: " + auth
		},
	}
}

// errorJSON is OpenAI's error body.
func errorJSON(typ, code, message string) string {
	e := map[string]any{"message": message, "type": typ}
	if code != "" {
		e["code"] = code
	}
	raw, _ := json.Marshal(map[string]any{"error": e})
	return string(raw)
}

// httpErrors are the error bodies of OpenAI and of the compatible servers.
var httpErrors = []llmtest.HTTPErrorCase{
	{Name: "429 rate limit", Status: 429,
		Body: `{"error":{"message":"Rate limit reached for gpt-4o in organization org-1 on tokens per min (TPM)","type":"tokens","param":null,"code":"rate_limit_exceeded"}}`,
		Type: "tokens", Code: "rate_limit_exceeded", Message: "Rate limit reached for gpt-4o in organization org-1 on tokens per min (TPM)"},
	{Name: "429 insufficient quota", Status: 429,
		Body: `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`,
		Type: "insufficient_quota", Code: "insufficient_quota", Message: "You exceeded your current quota"},
	{Name: "401 bad key", Status: 401,
		Body: `{"error":{"message":"Incorrect API key provided: sk-wrong.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
		Type: "invalid_request_error", Code: "invalid_api_key", Message: "Incorrect API key provided: sk-wrong."},
	{Name: "400 context length", Status: 400,
		Body: `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
		Type: "invalid_request_error", Code: "context_length_exceeded",
		Message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens."},
	{Name: "500 server error", Status: 500,
		Body: `{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`,
		Type: "server_error", Message: "The server had an error while processing your request."},
	{Name: "529 overloaded with a numeric code", Status: 529,
		Body: `{"error":{"message":"Overloaded","code":529}}`, Code: "529", Message: "Overloaded"},
	{Name: "404 ollama string error", Status: 404,
		Body:    `{"error":"model \"llama9\" not found, try pulling it first"}`,
		Message: `model "llama9" not found, try pulling it first`},
	{Name: "400 vllm flat error", Status: 400,
		Body: `{"object":"error","message":"max_tokens is too large","type":"BadRequestError","param":null,"code":400}`,
		Type: "BadRequestError", Code: "400", Message: "max_tokens is too large"},
}

// TestContract runs the StreamFn conformance suite.
func TestContract(t *testing.T) { llmtest.RunContract(t, harness().ContractHarness) }

// TestHTTP runs the HTTP provider suite.
func TestHTTP(t *testing.T) { llmtest.RunHTTP(t, harness()) }

// TestRecordedStreams replays every recorded Chat Completions stream.
func TestRecordedStreams(t *testing.T) {
	llmtest.ReplayFixtures(t, harness().ContractHarness, llmtest.Recordings{API: "openai-chat", Stops: map[string]agent.StopReason{
		"stop":       agent.StopReasonStop,
		"length":     agent.StopReasonLength,
		"tool_calls": agent.StopReasonToolUse,
	}})
}
