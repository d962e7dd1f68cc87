package agent

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strings"
)

// MaxTextToolCallBytes bounds the payload of one tool call a model wrote as
// text: a larger one stays text.
const MaxTextToolCallBytes = 256 << 10

// The tags that some models (Qwen, Hermes) wrap a tool call written as text in.
const (
	toolCallOpen  = "<tool_call>"
	toolCallClose = "</tool_call>"
)

// textCall is one tool call a model wrote as text.
type textCall struct {
	name string
	args map[string]any
}

// repairTextToolCalls turns the tool calls that m, a finished answer that
// asked for none, wrote as text into real tool calls (seed: plain-text tool
// call repair), so that models without native tool calling can still use
// the tools. The answer keeps its other blocks and the prose before the
// calls as its text, gains the calls after them and stops with toolUse.
// known says which tool names the run has; newID names each call.
func repairTextToolCalls(m Message, known func(string) bool, newID func() string) (Message, bool) {
	if m.StopReason != StopReasonStop || len(m.ToolCalls()) > 0 {
		return m, false
	}
	prose, calls, ok := parseTextToolCalls(m.TextContent(), known)
	if !ok {
		return m, false
	}
	content := make([]Content, 0, len(m.Content)+len(calls))
	for _, c := range m.Content {
		if c.Type != ContentText {
			content = append(content, c)
		}
	}
	if prose = strings.TrimSpace(prose); prose != "" {
		content = append(content, Text(prose))
	}
	for _, c := range calls {
		content = append(content, ToolCall(newID(), c.name, c.args))
	}
	m.Content, m.StopReason = content, StopReasonToolUse
	return m, true
}

// parseTextToolCalls finds the tool calls in text, in the shapes models
// write them:
//
//   - <tool_call>{"name": …, "arguments": {…}}</tool_call> blocks, one or
//     more, after optional prose, with nothing but white space between and
//     after them;
//   - the whole answer one JSON object {"name": …, "arguments": {…}}, bare
//     or in one ``` fence.
//
// "parameters" may stand for "arguments", and the arguments may be a JSON
// string holding the object. Every call must name a known tool, else none
// is found: prose that shows JSON, or a call of a tool the run does not
// have, stays text. prose is the text before the first block.
func parseTextToolCalls(text string, known func(string) bool) (prose string, calls []textCall, ok bool) {
	if start := strings.Index(text, toolCallOpen); start >= 0 {
		calls, ok = parseTaggedCalls(text[start:], known)
		return text[:start], calls, ok
	}
	body := strings.TrimSpace(text)
	if fenced, ok := unfence(body); ok {
		body = fenced
	}
	call, ok := parseCallPayload(body, known)
	if !ok {
		return "", nil, false
	}
	return "", []textCall{call}, true
}

// parseTaggedCalls reads text that starts with a tool_call tag as a run of
// tagged calls and nothing else.
func parseTaggedCalls(text string, known func(string) bool) ([]textCall, bool) {
	var calls []textCall
	for rest := text; strings.TrimSpace(rest) != ""; {
		rest = strings.TrimSpace(rest)
		if !strings.HasPrefix(rest, toolCallOpen) {
			return nil, false
		}
		payload, after, closed := strings.Cut(rest[len(toolCallOpen):], toolCallClose)
		if !closed {
			return nil, false
		}
		call, ok := parseCallPayload(payload, known)
		if !ok {
			return nil, false
		}
		calls = append(calls, call)
		rest = after
	}
	return calls, true
}

// unfence returns what one ``` fence (with or without a language) holds
// when s is that fence and nothing else.
func unfence(s string) (string, bool) {
	const fence = "```"
	if !strings.HasPrefix(s, fence) || !strings.HasSuffix(s, fence) || len(s) < 2*len(fence) {
		return "", false
	}
	_, inner, ok := strings.Cut(s[:len(s)-len(fence)], "\n")
	if !ok {
		return "", false
	}
	return strings.TrimSpace(inner), true
}

// parseCallPayload reads one call: a JSON object with a known "name" and
// its "arguments" (or "parameters"), and no other key.
func parseCallPayload(raw string, known func(string) bool) (textCall, bool) {
	raw = strings.TrimSpace(raw)
	if len(raw) > MaxTextToolCallBytes || !strings.HasPrefix(raw, "{") {
		return textCall{}, false
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal([]byte(raw), &fields) != nil {
		return textCall{}, false
	}
	var name string
	if json.Unmarshal(fields["name"], &name) != nil || !known(name) {
		return textCall{}, false
	}
	args, ok := fields["arguments"]
	if alt, has := fields["parameters"]; has {
		if ok {
			return textCall{}, false
		}
		args, ok = alt, true
	}
	if !ok || len(fields) != 2 {
		return textCall{}, false
	}
	var asString string
	if json.Unmarshal(args, &asString) == nil {
		args = json.RawMessage(asString)
	}
	var obj map[string]any
	if json.Unmarshal(args, &obj) != nil || obj == nil {
		return textCall{}, false
	}
	return textCall{name: name, args: obj}, true
}

// newToolCallID names a tool call the kernel made from text.
func newToolCallID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "call_text_" + hex.EncodeToString(b[:])
}
