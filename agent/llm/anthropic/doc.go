// Package anthropic streams assistant responses from the Anthropic Messages
// API through the official SDK (github.com/anthropics/anthropic-sdk-go/v2),
// which builds, authenticates and sends the requests; the streamed events are
// decoded in place (eventstream.go), at a fifth of the SDK decoder's cost.
// Its Provider.Stream is an agent.StreamFn.
//
//	p, err := anthropic.New(anthropic.Config{APIKey: key})
//	var stream agent.StreamFn = p.Stream
//
// # Requests
//
// The request carries the model's ID, the system prompt, the transcript and
// the tools (name, description, JSON schema as input_schema). Consecutive tool
// results travel in one user message as tool_result blocks (with is_error and
// their images); images are base64 blocks. Thinking blocks go back with their
// signatures, redacted ones as redacted_thinking, but only to the provider and
// API that produced them — another provider's thinking goes back as text.
// Assistant messages that failed or were aborted are left out, with the tool
// results that answer them; a call that never got a result gets a synthetic
// error result. Prompt caching: the system prompt and the last user message
// (tool results included) carry cache_control ephemeral breakpoints.
//
// max_tokens is StreamOptions.MaxTokens, else the model's maximum output, else
// DefaultMaxTokens. A reasoning model asked to think gets a thinking budget
// per level (minimal 1,024 tokens, low 2,048, medium 8,192, high 16,384, xhigh
// 32,768) with max_tokens raised above it; the models that deprecate budgets
// (claude-opus-4-6, claude-mythos-preview) get adaptive thinking with an
// effort instead.
//
// # Streams
//
// Text, thinking (with signature_delta), redacted_thinking blocks and tool_use
// blocks with input_json_delta are pushed as they arrive. Usage comes from
// message_start and message_delta, cache reads and writes included.
// stop_reason maps to the stop reason: end_turn, stop_sequence and pause_turn
// → stop, max_tokens → length, tool_use → toolUse; refusal and
// model_context_window_exceeded → error.
//
// # Failures and credentials
//
// Every failure ends the stream with an error event carrying an
// *agent.ProviderError: an HTTP status with the error type and a body excerpt;
// an error event mid-stream (overloaded_error, reported as the SDK reports it,
// an *anthropic.Error with status 200) as kind stream with its type; a network
// failure; the idle watchdog (see package llmhttp); an event that does not
// parse; a response without content. SDK retries, environment defaults
// (ANTHROPIC_API_KEY, profiles, ANTHROPIC_BASE_URL) and OpenTelemetry are off;
// the key comes only from Config.APIKey or StreamOptions.APIKey and is
// scrubbed from error messages and bodies.
package anthropic
