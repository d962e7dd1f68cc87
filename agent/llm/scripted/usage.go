package scripted

import "github.com/steer-tui/steer/agent"

// charsPerToken is the rough ratio the estimates use.
const charsPerToken = 4

// estimateContext estimates the input tokens of a request: the system prompt,
// every message and the tool specs, at charsPerToken characters a token.
func estimateContext(llm agent.LLMContext) int {
	n := len(llm.SystemPrompt)
	for _, m := range llm.Messages {
		n += len(m.Role) + len(m.ToolName) + contentChars(m.Content)
	}
	for _, t := range llm.Tools {
		n += len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	return tokens(n)
}

// usageOf is the usage of a response: spec when the scenario set one, else
// the estimated input and the estimated output of msg. Scripted tokens are
// free.
func usageOf(spec *UsageSpec, input int, msg agent.Message) agent.Usage {
	if spec != nil {
		return agent.Usage{Input: spec.Input, Output: spec.Output,
			CacheRead: spec.CacheRead, CacheWrite: spec.CacheWrite}
	}
	return agent.Usage{Input: input, Output: tokens(contentChars(msg.Content))}
}

func contentChars(blocks []agent.Content) int {
	n := 0
	for _, c := range blocks {
		switch c.Type {
		case agent.ContentText:
			n += len(c.Text)
		case agent.ContentThinking:
			n += len(c.Thinking) + len(c.Signature)
		case agent.ContentToolCall:
			n += len(c.ID) + len(c.Name) + len(argsJSON(c.Arguments))
		case agent.ContentImage:
			n += 2000 * charsPerToken // an image costs about 2,000 tokens
		}
	}
	return n
}

func tokens(chars int) int { return (chars + charsPerToken - 1) / charsPerToken }
