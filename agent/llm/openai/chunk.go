package openai

import "github.com/steer-tui/steer/agent/llm/jsonscan"

// completionChunk is what the handler reads of one streamed chat.completion.chunk.
// chunkDecoder fills it in place from the event's bytes: the SDK's generic
// decoder keeps the raw JSON of every field and cost ~10× as much per chunk
// (issue 16). A field of the wrong JSON type counts as absent, and strings
// are decoded as encoding/json decodes them (invalid UTF-8 becomes U+FFFD,
// which the SDK passed through).
type completionChunk struct {
	HasUsage bool // the chunk carries a usage object
	Usage    usage
	Choices  []choice
}

type choice struct {
	Index        int64
	Delta        delta
	FinishReason string
}

type delta struct {
	Role    string // the first chunk names the assistant's
	Content string
	Refusal string
	// Reasoning is the first non-empty of reasoningKeys.
	Reasoning string
	ToolCalls []toolCallDelta
}

// toolCallDelta is one piece of a streamed tool call.
type toolCallDelta struct {
	Index     int64
	HasIndex  bool // older Ollama and Mistral send no index
	ID        string
	Name      string
	Arguments string
}

type usage struct {
	PromptTokens     int64
	CompletionTokens int64
	CachedTokens     int64 // prompt_tokens_details.cached_tokens
	CacheWriteTokens int64 // prompt_tokens_details.cache_write_tokens (OpenRouter)
}

// reasoningKeys are the delta fields OpenAI-compatible servers stream
// reasoning in, in order of preference: llama.cpp, DeepSeek and vLLM send
// reasoning_content, OpenRouter and newer vLLM send reasoning. A server that
// sends both sends the same text twice, so only the first present is read.
var reasoningKeys = [...]string{"reasoning_content", "reasoning"}

// chunkDecoder decodes the chunks of one stream, reusing one chunk: a
// decoded chunk is valid until the next decode.
type chunkDecoder struct {
	chunk completionChunk
	calls []toolCallDelta // the tool calls of every choice, back to back
}

// decode reads the chunk v, a JSON object. Like the SDK, it reads the first
// of duplicated members.
func (d *chunkDecoder) decode(v jsonscan.Value) *completionChunk {
	c := &d.chunk
	*c = completionChunk{Choices: c.Choices[:0]}
	d.calls = d.calls[:0]
	if choices, ok := v.Member("choices"); ok {
		for el := range choices.Elements() {
			c.Choices = append(c.Choices, d.choice(el))
		}
	}
	if u, ok := v.Member("usage"); ok && u.Kind() == jsonscan.Object {
		c.HasUsage, c.Usage = true, usageFrom(u)
	}
	return c
}

func (d *chunkDecoder) choice(v jsonscan.Value) choice {
	ch := choice{Index: intMember(v, "index"), FinishReason: strMember(v, "finish_reason")}
	dv, _ := v.Member("delta")
	ch.Delta = delta{Role: roleMember(dv), Content: strMember(dv, "content"), Refusal: strMember(dv, "refusal")}
	for _, name := range reasoningKeys {
		if r := strMember(dv, name); r != "" {
			ch.Delta.Reasoning = r
			break
		}
	}
	if calls, ok := dv.Member("tool_calls"); ok {
		start := len(d.calls)
		for el := range calls.Elements() {
			d.calls = append(d.calls, toolCallFrom(el))
		}
		ch.Delta.ToolCalls = d.calls[start:len(d.calls):len(d.calls)]
	}
	return ch
}

func toolCallFrom(v jsonscan.Value) toolCallDelta {
	tc := toolCallDelta{ID: strMember(v, "id")}
	if i, ok := v.Member("index"); ok {
		tc.Index, tc.HasIndex = i.Int()
	}
	fn, _ := v.Member("function")
	tc.Name, tc.Arguments = strMember(fn, "name"), strMember(fn, "arguments")
	return tc
}

func usageFrom(v jsonscan.Value) usage {
	details, _ := v.Member("prompt_tokens_details")
	return usage{
		PromptTokens:     intMember(v, "prompt_tokens"),
		CompletionTokens: intMember(v, "completion_tokens"),
		CachedTokens:     intMember(details, "cached_tokens"),
		CacheWriteTokens: intMember(details, "cache_write_tokens"),
	}
}

// strMember is the object's string member name, "" when it is missing or
// not a string.
func strMember(v jsonscan.Value, name string) string {
	m, _ := v.Member(name)
	s, _ := m.Str()
	return s
}

// roleMember is the delta's role; "assistant", the only one servers send,
// is read without allocating.
func roleMember(v jsonscan.Value) string {
	m, _ := v.Member("role")
	s, _ := m.Intern(roles[:])
	return s
}

var roles = [...]string{"assistant"}

// intMember is the object's integer member name, 0 when it is missing or
// not a number.
func intMember(v jsonscan.Value, name string) int64 {
	m, _ := v.Member(name)
	n, _ := m.Int()
	return n
}
