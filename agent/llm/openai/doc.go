// Package openai streams assistant responses from any server that speaks the
// OpenAI Chat Completions API — OpenAI itself, OpenRouter, Groq, DeepSeek,
// Mistral, Ollama, vLLM, llama.cpp server, LM Studio — through the official
// SDK (github.com/openai/openai-go/v3), which builds, authenticates and sends
// the requests; the streamed chunks are decoded in place (chunkstream.go), at
// a seventh of the SDK decoder's cost. Its Provider.Stream is an
// agent.StreamFn.
//
//	p, err := openai.New(openai.Config{BaseURL: "https://openrouter.ai/api/v1", APIKey: key})
//	var stream agent.StreamFn = p.Stream
//
// # Requests
//
// The request carries the model's ID, the system prompt, the transcript and
// the tools (name, description, JSON schema). User images are sent as data
// URLs; a tool result's images follow it in a user message, since tool
// messages hold only text. Thinking blocks are not sent back: Chat Completions
// has no field for them. Assistant messages that failed or were aborted are
// left out, with the tool results that answer them; a tool call that never got
// a result gets a synthetic error result, so that the server accepts the
// transcript. StreamOptions.MaxTokens becomes max_completion_tokens for
// api.openai.com and max_tokens elsewhere; a reasoning model's thinking level
// becomes reasoning_effort (off sends none). Usage is always asked for
// (stream_options.include_usage).
//
// # Streams
//
// Text, reasoning (the reasoning_content or reasoning field of
// OpenAI-compatible servers such as llama.cpp, DeepSeek and OpenRouter) and
// tool calls are pushed as they arrive; a call's arguments may arrive in
// pieces and several calls may stream one after the other, told apart by
// index. SSE comments (OpenRouter's ": OPENROUTER PROCESSING") are skipped.
// finish_reason maps to the stop reason: stop → stop (toolUse when calls were
// made), length → length, tool_calls → toolUse, content_filter → error.
//
// # Failures and credentials
//
// Every failure ends the stream with an error event carrying an
// *agent.ProviderError: an HTTP status with the provider's type, code and a
// body excerpt; an error event inside the stream; a network failure; the idle
// watchdog (see package llmhttp); a chunk that does not parse; a response
// without content. SDK retries are off: retrying is failover's decision. The
// SDK's environment defaults are never read, so OPENAI_API_KEY is not sent to
// a base URL it was not meant for; the key comes only from Config.APIKey or
// StreamOptions.APIKey and is scrubbed from error messages and bodies.
package openai
