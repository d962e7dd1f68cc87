package agent

import (
	"context"
	"encoding/json"
)

// ThinkingLevel asks a reasoning model how hard to think.
type ThinkingLevel string

// The thinking levels, from none to most.
const (
	ThinkingOff     ThinkingLevel = "off"
	ThinkingMinimal ThinkingLevel = "minimal"
	ThinkingLow     ThinkingLevel = "low"
	ThinkingMedium  ThinkingLevel = "medium"
	ThinkingHigh    ThinkingLevel = "high"
	ThinkingXHigh   ThinkingLevel = "xhigh"
)

// ParseThinkingLevel returns the level named s, or false when s names none.
func ParseThinkingLevel(s string) (ThinkingLevel, bool) {
	switch l := ThinkingLevel(s); l {
	case ThinkingOff, ThinkingMinimal, ThinkingLow, ThinkingMedium, ThinkingHigh, ThinkingXHigh:
		return l, true
	}
	return "", false
}

// ModelCost is the price per million tokens.
type ModelCost struct {
	Input      float64
	Output     float64
	CacheRead  float64
	CacheWrite float64
}

// Model describes one model of one provider.
type Model struct {
	Provider      string
	ID            string
	Name          string
	API           string
	BaseURL       string
	ContextWindow int
	MaxOutput     int
	Reasoning     bool
	// Input lists the accepted input kinds: "text", "image".
	Input []string
	Cost  ModelCost
}

// Ref is the model's canonical reference, provider/id.
func (m Model) Ref() string { return m.Provider + "/" + m.ID }

// ToolSpec is what the model is told about a tool.
type ToolSpec struct {
	Name        string
	Description string
	// Parameters is the JSON schema of the arguments object.
	Parameters json.RawMessage
}

// LLMContext is everything one request sends.
type LLMContext struct {
	SystemPrompt string
	Messages     []Message
	Tools        []ToolSpec
}

// StreamOptions tune one request.
type StreamOptions struct {
	Thinking ThinkingLevel
	// MaxTokens caps the output; 0 means the model's maximum.
	MaxTokens int
	// APIKey and Profile name the credentials to use; Profile is the auth
	// profile's id, for providers (and scripted faults) that care.
	APIKey  string
	Profile string
	// SessionID lets a provider key its prompt cache.
	SessionID string
}

// AssistantEventType names an assistant streaming event; the names are the
// ones pi's clients read in assistantMessageEvent.type.
type AssistantEventType string

// The assistant streaming events.
const (
	EventStart         AssistantEventType = "start"
	EventTextStart     AssistantEventType = "text_start"
	EventTextDelta     AssistantEventType = "text_delta"
	EventTextEnd       AssistantEventType = "text_end"
	EventThinkingStart AssistantEventType = "thinking_start"
	EventThinkingDelta AssistantEventType = "thinking_delta"
	EventThinkingEnd   AssistantEventType = "thinking_end"
	EventToolCallStart AssistantEventType = "toolcall_start"
	EventToolCallDelta AssistantEventType = "toolcall_delta"
	EventToolCallEnd   AssistantEventType = "toolcall_end"
	EventDone          AssistantEventType = "done"
	EventError         AssistantEventType = "error"
	// EventAnnotation carries an Annotation for the run (see Annotate); it
	// changes nothing of the message.
	EventAnnotation AssistantEventType = "annotation"
	// EventReplaceContext says that the StreamFn replaced the context it was
	// given (compaction): the run goes on from Context, and the transcript
	// becomes it. It must come before the response's start.
	EventReplaceContext AssistantEventType = "replace_context"
)

// AssistantEvent is one step of a streaming assistant response.
type AssistantEvent struct {
	Type AssistantEventType
	// ContentIndex is the block the event is about (not for start/done/error).
	ContentIndex int
	// Delta is the new text, thinking or argument JSON of a *_delta event.
	Delta string
	// Content is the finished text or thinking of a text_end or thinking_end.
	Content string
	// ToolCall is the finished call of a toolcall_end.
	ToolCall *Content
	// Reason is the stop reason of done and error.
	Reason StopReason
	// Partial is the message as it stands after this event; for done and error
	// it is the final message. Snapshots are immutable and may be kept.
	// Empty for an annotation.
	Partial Message
	// Annotation is the run event an EventAnnotation carries.
	Annotation *Annotation
	// Context is the new context of an EventReplaceContext.
	Context []Message
}

// ReplaceContext is the AssistantEvent that replaces the run's context (and
// the transcript) with msgs; see EventReplaceContext.
func ReplaceContext(msgs []Message) AssistantEvent {
	return AssistantEvent{Type: EventReplaceContext, Context: msgs}
}

// AssistantStream is what a StreamFn returns.
type AssistantStream = EventStream[AssistantEvent, Message]

// NewAssistantStream returns a stream that completes on done or error.
func NewAssistantStream() *AssistantStream {
	return NewEventStream(
		func(e AssistantEvent) bool { return e.Type == EventDone || e.Type == EventError },
		func(e AssistantEvent) Message { return e.Partial },
	)
}

// StreamFn streams one assistant response.
//
// It returns at once; a goroutine it starts pushes the events and calls End. It
// never returns an error and never panics out: every failure (HTTP status,
// network, idle timeout, malformed data) is pushed as an error event whose
// Partial is the final message with stopReason error, or aborted when ctx was
// cancelled. Cancelling ctx must end the request promptly. The caller owns
// llm and must not change it while the stream runs.
type StreamFn func(ctx context.Context, model Model, llm LLMContext, opts StreamOptions) *AssistantStream
