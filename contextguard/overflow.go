package contextguard

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// overflowLimitPatterns are the ways providers state their context limit in
// an overflow error; the first group is the limit in tokens. Each comes from
// a real error (see overflow_test.go). Only wording about the context or the
// prompt counts: output limits (max_tokens), rate limits (tokens per minute)
// and size limits in bytes or characters state other numbers. They compile
// on first use: only an overflow error needs them, and compiling them with
// (?i) at start-up cost every process ~1 ms and a main stack grown to 512 KB.
var overflowLimitPatterns = sync.OnceValue(func() []*regexp.Regexp {
	return compileAll(overflowLimitSources...)
})

var overflowLimitSources = []string{
	// OpenAI, Azure, DeepSeek, vLLM, OpenRouter ("This endpoint's …")
	`maximum context length is ([\d,]+) tokens`,
	// Anthropic, also through Bedrock and LiteLLM
	`prompt is too long: [\d,]+ tokens > ([\d,]+) maximum`,
	`exceed context limit: [\d,]+ \+ [\d,]+ > ([\d,]+)`,
	// Gemini
	`exceeds the maximum number of tokens allowed \(([\d,]+)\)`,
	// xAI
	`maximum prompt length is ([\d,]+)`,
	// Mistral, vLLM
	`too large for model with ([\d,]+) maximum context length`,
	`longer than the maximum model length of ([\d,]+)`,
	`context length is only ([\d,]+) tokens`,
	`exceeds (?:the )?(?:model'?s )?maximum context length (?:of )?\(?([\d,]+)`,
	`is longer than the model'?s context length \(([\d,]+) tokens\)`,
	// Hugging Face TGI
	"tokens \\+ `?max_new_tokens`? must be <= ([\\d,]+)",
	// llama.cpp
	`exceeds the available context size \(([\d,]+) tokens\)`,
	`"n_ctx"\s*:\s*([\d,]+)`,
	`exceed context window of ([\d,]+)`,
	// Moonshot / Kimi
	`exceeded model token limit: ([\d,]+)`,
	// gateways in front of OpenAI, GitHub Copilot, vLLM's input limit, the DS4
	// server, DashScope (Qwen) and iFlytek
	`exceed(?:s)? the configured limit of ([\d,]+) tokens`,
	`token count of [\d,]+ exceeds the limit of ([\d,]+)`,
	`exceeds (?:the )?maximum allowed input length of ([\d,]+) tokens`,
	`but the configured context size is ([\d,]+) tokens`,
	`range of input length should be \[1, ?([\d,]+)\]`,
}

func compileAll(patterns ...string) []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(patterns))
	for i, p := range patterns {
		out[i] = regexp.MustCompile(`(?i)` + p)
	}
	return out
}

// OverflowLimit reads the context limit, in tokens, that a provider's
// overflow error states ("This model's maximum context length is 8192
// tokens", "prompt is too long: 213000 tokens > 200000 maximum"). ok is
// false when the text states none. The recovery uses the limit as the
// window for the rest of the run (Budget.Window), if it is smaller than the
// model's.
func OverflowLimit(errorText string) (tokens int, ok bool) {
	for _, re := range overflowLimitPatterns() {
		m := re.FindStringSubmatch(errorText)
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		if err == nil && n > 0 {
			return n, true
		}
	}
	return 0, false
}
