package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// MarshalJSON renders m in pi's message shape, the one steer's JSON output,
// RPC protocol and transcript store all use: user {role, content (a string for
// a lone text block, else blocks), timestamp}; assistant {role, content, api,
// provider, model, usage, stopReason, errorMessage?, timestamp} plus steer's
// providerError; toolResult {role, toolCallId, toolName, content, isError,
// details?, timestamp}. Timestamps are Unix milliseconds. It fails only when
// Details holds a value JSON cannot represent.
func (m Message) MarshalJSON() ([]byte, error) { return EncodeJSON(messageOut(m)) }

// UnmarshalJSON parses a message in pi's shape, as MarshalJSON writes it or a
// pi client sends it. Details and tool-call arguments come back as plain JSON
// values (map[string]any, []any, float64, string, bool).
func (m *Message) UnmarshalJSON(data []byte) error {
	// Content is most often an array of blocks, and the bulk of the bytes:
	// decoding it in the same pass as the message reads it once. Text
	// content (a user message's string) takes the second, general pass.
	var fast messageInBlocks
	err := json.Unmarshal(data, &fast)
	var typeErr *json.UnmarshalTypeError
	if err == nil {
		content, err := blocksIn(fast.Content)
		if err != nil {
			return fmt.Errorf("message content: %w", err)
		}
		msg, err := fast.message(content)
		if err != nil {
			return err
		}
		*m = msg
		return nil
	}
	if !errors.As(err, &typeErr) || typeErr.Field != "content" {
		return fmt.Errorf("message: %w", err)
	}
	var in messageIn
	if err := json.Unmarshal(data, &in); err != nil {
		return fmt.Errorf("message: %w", err)
	}
	content, err := contentIn(in.Content)
	if err != nil {
		return fmt.Errorf("message content: %w", err)
	}
	msg, err := in.message(content)
	if err != nil {
		return err
	}
	*m = msg
	return nil
}

// MarshalJSON renders a content block in pi's shape: text {type, text},
// thinking {type, thinking, thinkingSignature?, redacted?}, toolCall {type, id,
// name, arguments}, image {type, data, mimeType}; an attached text or image
// block adds attached {path, size, dir?}.
func (c Content) MarshalJSON() ([]byte, error) { return EncodeJSON(blockOut(c)) }

// UnmarshalJSON parses a block in pi's shape; images may also come in the
// {"type":"image","source":{"type":"base64","mediaType","data"}} form.
func (c *Content) UnmarshalJSON(data []byte) error {
	var in blockIn
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	block, err := in.content()
	if err != nil {
		return err
	}
	*c = block
	return nil
}

// EncodeJSON is json.Marshal without HTML escaping, so that code and tool
// output stay readable; U+2028 and U+2029 are still escaped inside strings.
// Every JSON steer writes for people and clients goes through it.
func EncodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// millis is a message timestamp on the wire; the zero time is 0.
func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// fromMillis inverts millis, in UTC.
func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// The wire shapes of the messages, one per role.

type userOut struct {
	Role        string `json:"role"`
	Content     any    `json:"content"` // a string for a lone text block, else []any
	Timestamp   int64  `json:"timestamp"`
	QueueItemID string `json:"queueItemId,omitempty"`
	Details     any    `json:"details,omitempty"` // a shell command's (ShellDetails)
}

type assistantOut struct {
	Role          string            `json:"role"`
	Content       []any             `json:"content"`
	API           string            `json:"api"`
	Provider      string            `json:"provider"`
	Model         string            `json:"model"`
	Usage         usageJSON         `json:"usage"`
	StopReason    string            `json:"stopReason"`
	ErrorMessage  string            `json:"errorMessage,omitempty"`
	ProviderError *providerErrorOut `json:"providerError,omitempty"`
	Details       any               `json:"details,omitempty"`
	Timestamp     int64             `json:"timestamp"`
}

type toolResultOut struct {
	Role       string `json:"role"`
	ToolCallID string `json:"toolCallId"`
	ToolName   string `json:"toolName"`
	Content    []any  `json:"content"`
	IsError    bool   `json:"isError"`
	Details    any    `json:"details,omitempty"`
	Timestamp  int64  `json:"timestamp"`
}

type usageJSON struct {
	Input       int      `json:"input"`
	Output      int      `json:"output"`
	CacheRead   int      `json:"cacheRead"`
	CacheWrite  int      `json:"cacheWrite"`
	TotalTokens int      `json:"totalTokens"`
	Cost        costJSON `json:"cost"`
}

type costJSON struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	Total      float64 `json:"total"`
}

type providerErrorOut struct {
	Kind    string `json:"kind"`
	Status  int    `json:"status"`
	Type    string `json:"type"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Body    string `json:"body"`
}

// messageOut returns the value whose JSON is m in pi's shape. A message of a
// role pi does not know keeps the assistant shape, so that nothing is lost.
func messageOut(m Message) any {
	switch m.Role {
	case RoleUser:
		out := userOut{Role: string(m.Role), Timestamp: millis(m.Timestamp), QueueItemID: m.QueueItemID, Details: m.Details}
		if len(m.Content) == 1 && m.Content[0].Type == ContentText && !m.Content[0].Attached.Valid() {
			out.Content = m.Content[0].Text
		} else {
			out.Content = blocksOut(m.Content)
		}
		return out
	case RoleToolResult:
		return toolResultOut{
			Role: string(m.Role), ToolCallID: m.ToolCallID, ToolName: m.ToolName,
			Content: blocksOut(m.Content), IsError: m.IsError, Details: m.Details,
			Timestamp: millis(m.Timestamp),
		}
	default:
		u := m.Usage
		out := assistantOut{
			Role: string(m.Role), Content: blocksOut(m.Content),
			API: m.API, Provider: m.Provider, Model: m.Model,
			Usage: usageJSON{
				Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite,
				TotalTokens: u.TotalTokens(),
				Cost: costJSON{
					Input: u.Cost.Input, Output: u.Cost.Output, CacheRead: u.Cost.CacheRead,
					CacheWrite: u.Cost.CacheWrite, Total: u.Cost.Total,
				},
			},
			StopReason: string(m.StopReason), ErrorMessage: m.ErrorMessage,
			Details: m.Details, Timestamp: millis(m.Timestamp),
		}
		if e := m.Error; e != nil {
			out.ProviderError = &providerErrorOut{
				Kind: string(e.Kind), Status: e.Status, Type: e.Type, Code: e.Code,
				Message: e.Message, Body: e.Body,
			}
		}
		return out
	}
}

// The wire shapes of the content blocks.

type textOut struct {
	Type     string         `json:"type"`
	Text     string         `json:"text"`
	Attached *attachmentOut `json:"attached,omitempty"`
}

type thinkingOut struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking"`
	Signature string `json:"thinkingSignature,omitempty"`
	Redacted  bool   `json:"redacted,omitempty"`
}

type toolCallOut struct {
	Type      string         `json:"type"`
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

type imageOut struct {
	Type     string         `json:"type"`
	Data     string         `json:"data"`
	MimeType string         `json:"mimeType"`
	Attached *attachmentOut `json:"attached,omitempty"`
}

// attachmentOut is Content.Attached on the wire; a block not attached has
// none.
type attachmentOut struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
	Dir  bool   `json:"dir,omitempty"`
}

func attachedOut(a Attachment) *attachmentOut {
	if !a.Valid() {
		return nil
	}
	return &attachmentOut{Path: a.Path, Size: a.Size, Dir: a.Dir}
}

func (a *attachmentOut) attachment() Attachment {
	if a == nil {
		return Attachment{}
	}
	return Attachment{Path: a.Path, Size: a.Size, Dir: a.Dir}
}

// blockOut returns the value whose JSON is c in pi's shape.
func blockOut(c Content) any {
	switch c.Type {
	case ContentThinking:
		return thinkingOut{Type: string(c.Type), Thinking: c.Thinking, Signature: c.Signature, Redacted: c.Redacted}
	case ContentToolCall:
		args := c.Arguments
		if args == nil {
			args = map[string]any{}
		}
		return toolCallOut{Type: string(c.Type), ID: c.ID, Name: c.Name, Arguments: args}
	case ContentImage:
		return imageOut{Type: string(c.Type), Data: c.Data, MimeType: c.MimeType, Attached: attachedOut(c.Attached)}
	default:
		return textOut{Type: string(c.Type), Text: c.Text, Attached: attachedOut(c.Attached)}
	}
}

// blocksOut renders content; it is never nil, so it encodes as [].
func blocksOut(cs []Content) []any {
	out := make([]any, len(cs))
	for i, c := range cs {
		out[i] = blockOut(c)
	}
	return out
}

// messageIn is the union of the role shapes, for parsing.
type messageIn struct {
	messageFields
	Content json.RawMessage `json:"content"`
}

// messageInBlocks is messageIn for content that is an array of blocks.
type messageInBlocks struct {
	messageFields
	Content []blockIn `json:"content"`
}

// messageFields are the fields of a message besides its content.
type messageFields struct {
	Role          string            `json:"role"`
	Timestamp     float64           `json:"timestamp"`
	QueueItemID   string            `json:"queueItemId"`
	API           string            `json:"api"`
	Provider      string            `json:"provider"`
	Model         string            `json:"model"`
	Usage         usageJSON         `json:"usage"`
	StopReason    string            `json:"stopReason"`
	ErrorMessage  string            `json:"errorMessage"`
	ProviderError *providerErrorOut `json:"providerError"`
	ToolCallID    string            `json:"toolCallId"`
	ToolName      string            `json:"toolName"`
	IsError       bool              `json:"isError"`
	Details       json.RawMessage   `json:"details"`
}

func (in messageFields) message(content []Content) (Message, error) {
	role := Role(in.Role)
	switch role {
	case RoleUser, RoleAssistant, RoleToolResult:
	case "":
		return Message{}, errors.New("message: missing role")
	default:
		return Message{}, fmt.Errorf("message: unsupported role %q", in.Role)
	}
	m := Message{Role: role, Content: content, Timestamp: fromMillis(int64(in.Timestamp))}
	if len(in.Details) > 0 && !bytes.Equal(in.Details, []byte("null")) {
		if err := json.Unmarshal(in.Details, &m.Details); err != nil {
			return Message{}, fmt.Errorf("message details: %w", err)
		}
	}
	switch role {
	case RoleUser:
		m.QueueItemID = in.QueueItemID
	case RoleAssistant:
		u, c := in.Usage, in.Usage.Cost
		m.API, m.Provider, m.Model = in.API, in.Provider, in.Model
		m.Usage = Usage{
			Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite,
			Cost: Cost{Input: c.Input, Output: c.Output, CacheRead: c.CacheRead, CacheWrite: c.CacheWrite, Total: c.Total},
		}
		m.StopReason, m.ErrorMessage = StopReason(in.StopReason), in.ErrorMessage
		if e := in.ProviderError; e != nil {
			m.Error = &ProviderError{
				Kind: ErrorKind(e.Kind), Status: e.Status, Type: e.Type, Code: e.Code,
				Message: e.Message, Body: e.Body,
			}
		}
	case RoleToolResult:
		m.ToolCallID, m.ToolName, m.IsError = in.ToolCallID, in.ToolName, in.IsError
	}
	return m, nil
}

// contentIn parses message content: a string (one text block) or an array of
// blocks. Absent content is no content.
func contentIn(raw json.RawMessage) ([]Content, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return []Content{Text(s)}, nil
	}
	var blocks []blockIn
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return nil, err
	}
	return blocksIn(blocks)
}

// blocksIn turns parsed blocks into content.
func blocksIn(blocks []blockIn) ([]Content, error) {
	if blocks == nil {
		return nil, nil
	}
	out := make([]Content, len(blocks))
	for i, b := range blocks {
		c, err := b.content()
		if err != nil {
			return nil, fmt.Errorf("block %d: %w", i, err)
		}
		out[i] = c
	}
	return out, nil
}

// blockIn is the union of the block shapes, for parsing. Images also come in
// the Anthropic-style form {"type":"image","source":{"type":"base64",...}}
// that pi's documentation shows for the prompt command.
type blockIn struct {
	Type              string         `json:"type"`
	Text              string         `json:"text"`
	Thinking          string         `json:"thinking"`
	ThinkingSignature string         `json:"thinkingSignature"`
	Redacted          bool           `json:"redacted"`
	ID                string         `json:"id"`
	Name              string         `json:"name"`
	Arguments         map[string]any `json:"arguments"`
	Data              string         `json:"data"`
	MimeType          string         `json:"mimeType"`
	Attached          *attachmentOut `json:"attached"`
	Source            *struct {
		Type      string `json:"type"`
		MediaType string `json:"mediaType"`
		Data      string `json:"data"`
	} `json:"source"`
}

func (b blockIn) content() (Content, error) {
	switch ContentType(b.Type) {
	case ContentText:
		return Content{Type: ContentText, Text: b.Text, Attached: b.Attached.attachment()}, nil
	case ContentThinking:
		return Content{Type: ContentThinking, Thinking: b.Thinking, Signature: b.ThinkingSignature, Redacted: b.Redacted}, nil
	case ContentToolCall:
		return ToolCall(b.ID, b.Name, b.Arguments), nil
	case ContentImage:
		return b.image()
	case "":
		return Content{}, errors.New("missing type")
	default:
		return Content{}, fmt.Errorf("unsupported block type %q", b.Type)
	}
}

func (b blockIn) image() (Content, error) {
	data, mime := b.Data, b.MimeType
	if s := b.Source; s != nil {
		if s.Type != "" && s.Type != "base64" {
			return Content{}, fmt.Errorf("image source type %q is not supported; send base64 data", s.Type)
		}
		data, mime = s.Data, s.MediaType
	}
	if data == "" {
		return Content{}, errors.New("image has no data")
	}
	if mime == "" {
		return Content{}, errors.New("image has no mimeType")
	}
	return Content{Type: ContentImage, Data: data, MimeType: mime, Attached: b.Attached.attachment()}, nil
}
