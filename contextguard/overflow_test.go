package contextguard

import "testing"

// Real errors, most from failover/testdata/classify_corpus.json (labelled
// context_overflow there), with where they were reported.
func TestOverflowLimit(t *testing.T) {
	cases := []struct {
		text   string
		want   int // 0: the text states no limit
		source string
	}{
		{"openai.error.InvalidRequestError: This model's maximum context length is 4097 tokens. However, your messages resulted in 4159 tokens. Please reduce the length of the messages.", 4097, "kaixindelele/ChatPaper#64"},
		{"This model's maximum context length is 4097 tokens, however you requested 4569 tokens (3545 in your prompt; 1024 for the completion). Please reduce your prompt; or completion length.", 4097, "AstrBotDevs/AstrBot#1"},
		{"anthropic.BadRequestError: Error code: 400 - {'type': 'error', 'error': {'type': 'invalid_request_error', 'message': 'prompt is too long: 208656 tokens > 200000 maximum'}}", 200_000, "sojohnnysaid/project-guide#2"},
		{`litellm.BadRequestError: litellm.ContextWindowExceededError: AnthropicError - {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 209353 tokens > 199999 maximum"}}`, 199_999, "entropy-research/Devon#88"},
		{`Failed to call Bedrock: ValidationException(ValidationException { message: Some("The model returned the following errors: prompt is too long: 227255 tokens > 200000 maximum") })`, 200_000, "aaif-goose/goose#7504"},
		{`{"type":"error","error":{"type":"invalid_request_error","message":"input length and ` + "`max_tokens`" + ` exceed context limit: 199759 + 8192 > 200000, decrease input length or ` + "`max_tokens`" + ` and try again"}}`, 200_000, "continuedev/continue#6080"},
		{"ValueError: This model's maximum context length is 16384 tokens. However, you requested 122946 tokens (112946 in the messages, 10000 in the completion). Please reduce the length of the messages or completion.", 16_384, "vllm-project/vllm#20409"},
		{"422 Input validation error: `inputs` tokens + `max_new_tokens` must be <= 32768. Given: 28897 `inputs` tokens and 3872 `max_new_tokens`", 32_768, "openclaw overflow cases (TGI)"},
		{`{"error":{"code":500,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"exceed_context_size_error","n_prompt_tokens":1407,"n_ctx":256}}`, 256, "ggml-org/llama.cpp#15780"},
		{`{"error":{"code":400,"message":"request (4390 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error"}}`, 4_096, "ggml-org/llama.cpp#19774"},
		{"Exception: Requested tokens (2285) exceed context window of 2048", 2_048, "fedora-copr/logdetective-website#193"},
		{`{"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}`, 1_048_576, "Gemini API, long context"},
		{`{"object":"error","message":"Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length","type":"invalid_request_error","param":null,"code":null}`, 32_768, "Mistral"},
		{`{"object":"error","message":"'max_tokens' or 'max_completion_tokens' is too large: 4096. This model's maximum context length is 4096 tokens and your request has 100 input tokens (4096 > 4096 - 100).","type":"BadRequestError","param":null,"code":400}`, 4_096, "vllm-project/vllm#33418"},
		{"openai.InternalServerError: Error code: 500 - {'detail': '[address=0.0.0.0:43769, pid=1065] The decoder prompt (length 66501) is longer than the maximum model length of 65536. Make sure that `max_model_len` is no smaller than the number of text tokens.'}", 65_536, "langchain-ai/deepagents#468"},
		{`Full error stack: Error: 400 This endpoint's maximum context length is 32768 tokens. However, you requested about 42832 tokens (42832 of text input). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.`, 32_768, "refly-ai/refly#1177"},
		{"API Request Failed error: 400 Input tokens exceed the configured limit of 272000 tokens. Your messages resulted in 289650 tokens. Please reduce the length of the messages.", 272_000, "cline/cline#5474"},
		{"You passed 202753 input tokens and requested 0 output tokens. However, the model's context length is only 202752 tokens, resulting in a maximum input length of 202752 tokens.", 202_752, "proxysoul/Empryo#52"},
		{`{"error":{"message":"This model's maximum context length is 2048 tokens. However, your request has 8 input tokens plus 2045 'max_tokens'. Please reduce one or the other. (parameter=input_tokens, max_tokens, value=(8, 2045))","type":"BadRequestError","param":"input_tokens, max_tokens","code":400}}`, 2_048, "vllm-project/vllm#33425"},
		{`API Error: 400 litellm.BadRequestError: XaiException - {"code":"invalid-argument","error":"This model's maximum prompt length is 500000 but the request contains 637815 tokens."}`, 500_000, "xAI through LiteLLM"},
		{`{"error":{"message":"This model's maximum context length is 262144 tokens. However, your messages resulted in 262897 tokens. Please reduce the length of the messages.","type":"Bad Request","code":400}}`, 262_144, "cline/cline#13194 (OpenRouter, Nvidia)"},
		{"The input token count (1,200,000) exceeds the maximum number of tokens allowed (1,048,576).", 1_048_576, "thousands separators"},
		{"OpenCode Server Error: APIError - prompt token count of 184573 exceeds the limit of 128000", 128_000, "GitHub Copilot through OpenCode"},
		{"Input length (265330) exceeds model's maximum context length (262144).", 262_144, "vLLM, in a provider-overflow test list"},
		{"Input length 131393 exceeds the maximum allowed input length of 131040 tokens.", 131_040, "vLLM, in a provider-overflow test list"},
		{"Prompt has 5,958,968 tokens, but the configured context size is 256,000 tokens", 256_000, "DS4 server (earendil-works/pi#6262)"},
		{"The input (210000 tokens) is longer than the model's context length (200000 tokens)", 200_000, "vLLM, in a provider-overflow test list"},
		{"Range of input length should be [1, 983616]", 983_616, "QwenLM/qwen-code#3652 (DashScope)"},
		{`{"error":{"code":"10012","message":"InternalError.Algo.InvalidParameter: Range of input length should be [1, 202745]"}}`, 202_745, "iFlytek, in an OpenCode test"},
		{"openai.BadRequestError: Error code: 400 - {'error': {'message': 'Invalid request: Your request exceeded model token limit: 131072', 'type': 'invalid_request_error'}}", 131_072, "Moonshot (Kimi)"},

		// Overflow errors that state no limit.
		{`{"type":"error","error":{"type":"invalid_request_error","message":"Request size exceeds model context window"}}`, 0, "openclaw overflow cases"},
		{"INVALID_ARGUMENT: input exceeds the maximum number of tokens", 0, "openclaw overflow cases"},
		{"The model returned the following errors: Input is too long for requested model.", 0, "continuedev/continue#9592"},
		{"ollama error: context length exceeded, too many tokens", 0, "openclaw overflow cases"},
		{`{"error":{"code":500,"message":"Context size has been exceeded.","type":"server_error"}}`, 0, "ggml-org/llama.cpp#19774"},
		{"Input is too large to process. Either enable context shift or increase context length.", 0, "ggml-org/llama.cpp#9544"},
		{"413 request entity too large", 0, "martin-opensky/whisper-assistant-vscode#18"},
		// Other numbers that are not the context window.
		{`{"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes. The maximum request size is 32 MB for standard API endpoints."}}`, 0, "docs.claude.com/en/api/errors"},
		{`{"error":{"message":"Invalid 'messages[1].content': string too long. Expected a string with maximum length 10485760, but got a string with length 12000000 instead.","type":"invalid_request_error","param":"messages[1].content","code":"string_above_max_length"}}`, 0, "OpenAI string_above_max_length"},
		{"max_tokens: 10000 > 4096, which is the maximum allowed number of output tokens for claude-3-5-sonnet-20240620", 0, "output limit"},
		{"Request too large for gpt-4o on tokens per min (TPM): Limit 30000, Requested 342389. The input or output tokens must be reduced in order to run successfully.", 0, "rate limit"},
		{"402 This request requires more credits, or fewer max_tokens. You requested up to 4096 tokens, but can only afford 4000.", 0, "OpenRouter credits"},
		{"", 0, "empty"},
	}
	used := make([]bool, len(overflowLimitPatterns()))
	for _, c := range cases {
		for i, re := range overflowLimitPatterns() {
			used[i] = used[i] || re.MatchString(c.text)
		}
	}
	for i, u := range used {
		if !u {
			t.Errorf("pattern %s matches no real error", overflowLimitPatterns()[i])
		}
	}
	for _, c := range cases {
		got, ok := OverflowLimit(c.text)
		if got != c.want || ok != (c.want > 0) {
			t.Errorf("%s: OverflowLimit = %d, %v; want %d\n  %s", c.source, got, ok, c.want, c.text)
		}
	}
}
