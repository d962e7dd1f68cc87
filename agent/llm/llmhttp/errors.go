package llmhttp

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/steer-tui/steer/agent"
)

// maxMessage bounds a message taken from a body that is not a JSON error.
const maxMessage = 200

// minSecret is the shortest key that Redact removes: shorter ones ("x",
// "none") are placeholders of local servers, and blanking every occurrence of
// them would garble messages.
const minSecret = 8

// HTTPError is the kernel's error for a response with a failure status and
// body: the provider's type, code and message when the body is a JSON error,
// else its first line (or the status text), and an excerpt of the body.
func HTTPError(status int, body []byte) *agent.ProviderError {
	e := ParseErrorBody(body)
	e.Kind, e.Status = agent.ErrorHTTP, status
	if e.Message == "" {
		e.Message = http.StatusText(status)
	}
	return e
}

// StreamError is the kernel's error for an error event inside a stream that
// had started with status 200; body is the event's JSON.
func StreamError(body []byte) *agent.ProviderError {
	e := ParseErrorBody(body)
	e.Kind = agent.ErrorStream
	if e.Message == "" {
		e.Message = "the provider reported an error mid-stream"
	}
	return e
}

// errorJSON covers the error shapes providers send:
//
//	{"error": {"type", "code", "message"}}          OpenAI, Groq, OpenRouter, DeepSeek
//	{"type": "error", "error": {"type", "message", "details": {"error_code"}}}  Anthropic
//	{"error": "message"}                            Ollama, llama.cpp, proxies
//	{"object": "error", "type", "code", "message"}  vLLM
type errorJSON struct {
	Error   json.RawMessage `json:"error"`
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"`
	Message string          `json:"message"`
	Detail  json.RawMessage `json:"detail"`
}

type errorObject struct {
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"`
	Message string          `json:"message"`
	Details struct {
		ErrorCode string `json:"error_code"`
	} `json:"details"`
}

// ParseErrorBody reads the provider's type, code and message from body and
// keeps an excerpt of it; fields it cannot find stay empty, except that a
// body that is not JSON gives its first line as the message.
func ParseErrorBody(body []byte) *agent.ProviderError {
	e := &agent.ProviderError{Body: agent.TruncateBody(string(body))}
	var top errorJSON
	if json.Unmarshal(body, &top) != nil {
		e.Message = firstLine(body)
		return e
	}
	e.Type, e.Code, e.Message = top.Type, rawString(top.Code), top.Message
	if e.Type == "error" { // Anthropic's envelope; the real type is inside
		e.Type = ""
	}
	var obj errorObject
	switch {
	case json.Unmarshal(top.Error, &obj) == nil:
		e.Type = firstNonEmpty(obj.Type, e.Type)
		e.Code = firstNonEmpty(rawString(obj.Code), obj.Details.ErrorCode, e.Code)
		e.Message = firstNonEmpty(obj.Message, e.Message)
	case len(top.Error) > 0:
		e.Message = firstNonEmpty(rawString(top.Error), e.Message)
	}
	if e.Message == "" {
		e.Message = rawString(top.Detail) // FastAPI-style servers
	}
	e.Message = agent.TruncateBody(e.Message)
	return e
}

// Redact removes every secret of at least minSecret bytes from the error's
// message and body, so that a server echoing the key cannot leak it.
func Redact(e *agent.ProviderError, secrets ...string) *agent.ProviderError {
	for _, s := range secrets {
		if len(s) < minSecret {
			continue
		}
		e.Message = strings.ReplaceAll(e.Message, s, "[redacted]")
		e.Body = strings.ReplaceAll(e.Body, s, "[redacted]")
		e.Type = strings.ReplaceAll(e.Type, s, "[redacted]")
		e.Code = strings.ReplaceAll(e.Code, s, "[redacted]")
	}
	return e
}

// rawString renders a JSON string as its value, any other JSON value (a
// number, an object) as its text, and null or nothing as "".
func rawString(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func firstLine(body []byte) string {
	s := strings.TrimSpace(string(body))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if len(s) > maxMessage {
		cut := maxMessage
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
