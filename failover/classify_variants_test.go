package failover

import "testing"

// TestClassifyVariants holds phrasing variants seen across providers (many from
// OpenClaw's classifier tests), labelled by SPEC §5.1, so the rules stay general.
func TestClassifyVariants(t *testing.T) {
	for _, c := range []struct {
		s    int
		t, w string
	}{
		{0, "RESOURCE_EXHAUSTED: Resource has been exhausted (e.g. check quota).", "rate_limit"},
		{0, "model_cooldown: All credentials for model gpt-5 are cooling down", "rate_limit"},
		{0, "You have hit your ChatGPT usage limit (plus plan)", "rate_limit"},
		{0, "LLM error 1310: Weekly/Monthly Limit Exhausted. Your limit will reset at 2026-03-06 22:19:54", "rate_limit"},
		{0, "rate limit exceeded", "rate_limit"},
		{0, "concurrency limit has been reached", "rate_limit"},
		{0, "workers_ai gateway error: quota limit exceeded", "rate_limit"},
		{0, "429 temporary provider response", "rate_limit"},
		{0, "quota_exceeded", "rate_limit"},
		{0, "429 You exceeded your daily request limit. Please try again in 24 hours.", "rate_limit"},
		{0, "request reached organization TPD rate limit, current: 1506556, limit: 1500000", "rate_limit"},
		{0, "too many requests", "rate_limit"},
		{402, "Monthly spend limit reached.", "billing"},
		{0, "Weekly usage limit exhausted.", "rate_limit"},
		{0, "429 insufficient_quota", "billing"},
		{0, "503 Engine Overloaded: The server is experiencing a high volume of requests and is temporarily overloaded.", "overloaded"},
		{0, "This model is currently experiencing high demand. Please try again later.", "overloaded"},
		{0, "service unavailable due to capacity limits", "overloaded"},
		{0, "529 API is busy", "overloaded"},
		{0, "ModelNotReadyException: model is not ready", "overloaded"},
		{0, "529 Please try again", "overloaded"},
		{0, "deadline exceeded", "timeout"},
		{0, "Connection error.", "timeout"},
		{0, "fetch failed", "timeout"},
		{0, "dial tcp: lookup api.example.com: no such host (ENOTFOUND)", "network"},
		{0, "The operation was aborted", "timeout"},
		{0, "Error: write EPIPE", "timeout"},
		{0, "500 Internal Server Error", "server_error"},
		{0, "502 Bad Gateway", "server_error"},
		{0, "503 Service Unavailable", "overloaded"},
		{0, "HTTP 500 temporary provider response", "server_error"},
		{0, "524 status code (no body)", "timeout"},
		{0, "Provider finish_reason: error", "server_error"},
		{0, "model gpt-5.5-preview-0429 not found", "model_not_found"},
		{0, "HTTP 410: session not found", "session_expired"},
		{0, "No conversation found with session ID: abc123", "session_expired"},
		{0, "request_too_large", "context_overflow"},
		{0, "Request exceeds the maximum size", "context_overflow"},
		{0, "context length exceeded", "context_overflow"},
		{0, "Invalid request: Your request exceeded model token limit: 262144 (requested: 291351)", "context_overflow"},
		{0, "input length and max_tokens exceed context limit (i.e 156321 + 48384 > 200000)", "context_overflow"},
		{0, "This request exceeds the model's maximum context length", "context_overflow"},
		{0, "input length 14295 tokens exceeds the model limit", "context_overflow"},
		{0, "ValidationException: Input token count exceeds the maximum number of input tokens", "context_overflow"},
		{0, "total tokens exceeds the model's maximum limit of 4096", "context_overflow"},
		{0, "400 Prompt has 256468 tokens, but the configured context size is 256000 tokens", "context_overflow"},
		{0, "413 Request Entity Too Large", "context_overflow"},
		{0, "invalid_api_key", "auth"},
		{403, "<!doctype html><html><head><title>403 Forbidden</title></head><body>Checking your browser...</body></html>", "auth"},
		{0, "Unhandled stop reason: model_context_window_exceeded", "context_overflow"},
		{0, "The model `gpt-5` does not exist or you do not have access to it.", "model_not_found"},
		{404, `{"error":{"message":"The model 'foo' does not exist","type":"invalid_request_error","code":"model_not_found"}}`, "model_not_found"},
		{400, `{"error":{"message":"Your request was rejected as a result of our safety system.","type":"invalid_request_error","code":"content_policy_violation"}}`, "unclassified"},
		{0, `{"type":"error","error":{"type":"permission_error","message":"Your API key does not have permission to use the specified resource."}}`, "auth"},
		{0, "Item with id 'rs_123' not found. Items are not persisted when `store` is set to false.", "session_expired"},
		{400, "registry.ollama.ai/library/gemma:2b does not support tools", "format"},
		{503, "upstream connect error or disconnect/reset before headers. reset reason: connection failure", "server_error"},
		{0, "Error code: 503 - {'error': {'message': 'Loading model', 'type': 'unavailable_error', 'code': 503}}", "overloaded"},
		{0, "litellm.Timeout: APITimeoutError - Request timed out.", "timeout"},
		{401, `{"error":{"message":"No auth credentials found","code":401}}`, "auth"},
		{0, "This key is disabled.", "auth_permanent"},
		{0, "Your organization has been disabled.", "auth_permanent"},
		{0, "Requested entity was not found.", "model_not_found"},
		{0, "User location is not supported for the API use.", "unclassified"},
		{0, "An unknown error occurred", "no_error_details"},
		{0, "empty", "unclassified"},
	} {
		if got := Classify(c.s, c.t).String(); got != c.w {
			t.Errorf("Classify(%d, %.80q) = %s, want %s", c.s, c.t, got, c.w)
		}
	}
}
