package agent

import (
	"strings"
	"time"
)

// Role says who produced a message.
type Role string

// The three roles of the transcript.
const (
	RoleUser       Role = "user"
	RoleAssistant  Role = "assistant"
	RoleToolResult Role = "toolResult"
)

// StopReason says why an assistant message ended.
type StopReason string

// The stop reasons of an assistant message.
const (
	StopReasonStop    StopReason = "stop"
	StopReasonLength  StopReason = "length"
	StopReasonToolUse StopReason = "toolUse"
	StopReasonError   StopReason = "error"
	StopReasonAborted StopReason = "aborted"
)

// ContentType names the kind of a content block.
type ContentType string

// The content block kinds.
const (
	ContentText     ContentType = "text"
	ContentThinking ContentType = "thinking"
	ContentToolCall ContentType = "toolCall"
	ContentImage    ContentType = "image"
)

// Content is one block of a message. Only the fields of its Type are meaningful.
// Blocks are values; Arguments is never mutated once a block is published, so a
// copied block may share it.
type Content struct {
	Type ContentType

	// Text holds the text of a text block.
	Text string

	// Thinking, Signature and Redacted describe a thinking block. Signature is the
	// provider's opaque proof that must be sent back with the block; a redacted
	// block keeps its encrypted payload in Signature.
	Thinking  string
	Signature string
	Redacted  bool

	// ID, Name and Arguments describe a tool call. Incomplete marks a call
	// whose argument JSON did not parse whole when its block ended: in a
	// response stopped by its output limit, the call the limit cut, which
	// is dropped, never run nor stored (see keepCalls). It is not encoded.
	ID         string
	Name       string
	Arguments  map[string]any
	Incomplete bool

	// MimeType and Data (base64) describe an image.
	MimeType string
	Data     string

	// Attached, on a text or image block of a user message, names the file
	// or directory the block was read from (an @-mention, a pasted image):
	// front ends show such a block as a chip, the model sees its content.
	Attached Attachment
}

// Text returns a text block.
func Text(s string) Content { return Content{Type: ContentText, Text: s} }

// ToolCall returns a tool-call block.
func ToolCall(id, name string, args map[string]any) Content {
	return Content{Type: ContentToolCall, ID: id, Name: name, Arguments: args}
}

// Cost is the price of a response in US dollars, split like Usage.
type Cost struct {
	Input      float64
	Output     float64
	CacheRead  float64
	CacheWrite float64
	Total      float64
}

// Usage counts the tokens of one response.
type Usage struct {
	Input      int
	Output     int
	CacheRead  int
	CacheWrite int
	Cost       Cost
}

// TotalTokens is every token the response was billed for.
func (u Usage) TotalTokens() int { return u.Input + u.Output + u.CacheRead + u.CacheWrite }

// Message is one entry of the transcript. Fields that do not belong to its Role
// stay zero.
type Message struct {
	Role      Role
	Content   []Content
	Timestamp time.Time

	// Assistant messages.
	API          string
	Provider     string
	Model        string
	Usage        Usage
	StopReason   StopReason
	ErrorMessage string
	Error        *ProviderError

	// Tool results.
	ToolCallID string
	ToolName   string
	IsError    bool
	Details    any

	// QueueItemID is set on a user message that was injected from a pending queue,
	// so that whoever persists the message can retire the queued input with it.
	QueueItemID string
}

// UserMessage returns a user message holding one text block.
func UserMessage(text string, at time.Time) Message {
	return Message{Role: RoleUser, Content: []Content{Text(text)}, Timestamp: at}
}

// HasText reports whether the message has text: whether TextContent would
// be non-empty, without joining an answer that may run to megabytes.
func (m Message) HasText() bool {
	for _, c := range m.Content {
		if c.Type == ContentText && c.Text != "" {
			return true
		}
	}
	return false
}

// TextContent joins the text blocks of the message.
func (m Message) TextContent() string {
	var b strings.Builder
	for _, c := range m.Content {
		if c.Type == ContentText {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// ToolCalls returns the tool-call blocks of the message, in order.
func (m Message) ToolCalls() []Content {
	var calls []Content
	for _, c := range m.Content {
		if c.Type == ContentToolCall {
			calls = append(calls, c)
		}
	}
	return calls
}

// withoutToolCalls returns a copy of m without tool-call blocks.
func (m Message) withoutToolCalls() Message {
	kept := make([]Content, 0, len(m.Content))
	for _, c := range m.Content {
		if c.Type != ContentToolCall {
			kept = append(kept, c)
		}
	}
	m.Content = kept
	return m
}

// Clone returns a copy of m whose content slice may be modified freely.
func (m Message) Clone() Message {
	m.Content = append([]Content(nil), m.Content...)
	return m
}
