// Package eventjson writes the kernel's events as JSON in pi's shapes, for
// every front end that prints them: `steer rpc`'s event stream and
// `steer run --json`. It sits beside the kernel so that both import it from
// below.
//
// Each event has pi's "type" and fields, plus steer's "sessionId":
//
//	agent_start · agent_end {messages} · turn_start · turn_end {message, toolResults}
//	message_start / message_end {message}
//	message_update {message, assistantMessageEvent {type, contentIndex?, delta?, content?,
//	               toolCall?, reason?, message? (done), error? (error)}}
//	tool_execution_start {toolCallId, toolName, args}
//	tool_execution_update {toolCallId, toolName, args, partialResult {content, details?}}
//	tool_execution_end {toolCallId, toolName, result {content, details?}, isError}
//	queue_update {steering [text], followUp [text], items [{id, kind, text}]}
//
// An annotation (agent.Annotation) is its Kind as the type, then its Data's
// fields. The runner's are: attempt_start / attempt_end {profile, model,
// attempt, reason?, decision?, durationMs?}; failover {reason, decision,
// from, to}; and, in pi's shapes, auto_retry_start {attempt, maxAttempts,
// delayMs, errorMessage} (plus steer's reason, profile, model, delaySource?)
// and auto_retry_end {success, attempt, finalError?}; cooldown {profile,
// model?, state, reason, until, source} when a failure opened, lengthened or
// widened an auth profile's window (source: "schedule" or the header of the
// provider's hint, e.g. "retry-after"), and cooldown_cleared {profile,
// model?, source: "user" | "expired"} (see runner's cooldownevents.go);
// after every agent_end, run_end {runId, outcome, reason?}, outcome one of
// completed, failed, cancelled, timeout, hard_timeout, blocked.
// In plan mode, plan {path, text} when the model wrote its plan file, and
// approval_mode {sessionId, mode, planFile?} when the mode changes (see
// runner's planmode.go).
//
// Unlike pi, assistantMessageEvent carries no "partial": the message_update's
// "message" is that same message so far, and sending both would double the
// stream.
package eventjson

import (
	"encoding/json"
	"time"

	"github.com/steer-tui/steer/agent"
)

// Encode renders ev as one JSON object in pi's event shape (no trailing
// newline), with steer's "sessionId" added. It fails only when a message's or
// a tool result's Details holds a value JSON cannot represent.
func Encode(ev agent.Event, sessionID string) ([]byte, error) {
	return agent.EncodeJSON(eventOut(ev, sessionID))
}

// Line is Encode for a stream that must go on: an event that cannot be
// encoded still goes out, as its type and session with an "encodeError", so
// that a client waiting for agent_end is never left hanging.
func Line(ev agent.Event, sessionID string) []byte {
	line, err := Encode(ev, sessionID)
	if err != nil {
		line, _ = agent.EncodeJSON(encodeFailureOut{
			header:      header{Type: ev.Type(), SessionID: sessionID},
			EncodeError: err.Error(),
		})
	}
	return line
}

type encodeFailureOut struct {
	header
	EncodeError string `json:"encodeError"`
}

// sessionHeaderVersion is the version of pi's session header that steer's
// header matches.
const sessionHeaderVersion = 3

// SessionHeader is the first line of `steer run --json`, shaped like pi's:
// {"type":"session","version":3,"id":…,"timestamp":ISO-8601,"cwd":…}.
func SessionHeader(id, cwd string, at time.Time) []byte {
	line, _ := agent.EncodeJSON(sessionHeaderOut{
		Type: "session", Version: sessionHeaderVersion, ID: id,
		Timestamp: at.UTC().Format(time.RFC3339Nano), Cwd: cwd,
	})
	return line // strings and an integer always encode
}

type sessionHeaderOut struct {
	Type      string `json:"type"`
	Version   int    `json:"version"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Cwd       string `json:"cwd"`
}

// header opens every event: pi's type and steer's sessionId.
type header struct {
	Type      string `json:"type"`
	SessionID string `json:"sessionId"`
}

type agentEndOut struct {
	header
	Messages []agent.Message `json:"messages"`
}

type turnEndOut struct {
	header
	Message     agent.Message   `json:"message"`
	ToolResults []agent.Message `json:"toolResults"`
}

type messageEventOut struct {
	header
	Message agent.Message `json:"message"`
}

type messageUpdateOut struct {
	header
	Message               any               `json:"message"`
	AssistantMessageEvent assistantEventOut `json:"assistantMessageEvent"`
}

// assistantEventOut is pi's AssistantMessageEvent without its "partial": the
// enclosing message_update already carries the message so far, and sending it
// twice would double the stream.
type assistantEventOut struct {
	Type         string  `json:"type"`
	ContentIndex *int    `json:"contentIndex,omitempty"`
	Delta        *string `json:"delta,omitempty"`
	Content      *string `json:"content,omitempty"`
	ToolCall     any     `json:"toolCall,omitempty"`
	Reason       string  `json:"reason,omitempty"`
	Message      any     `json:"message,omitempty"` // done: the final message
	Error        any     `json:"error,omitempty"`   // error: the final message
}

type toolStartOut struct {
	header
	ToolCallID string         `json:"toolCallId"`
	ToolName   string         `json:"toolName"`
	Args       map[string]any `json:"args"`
}

type toolUpdateOut struct {
	header
	ToolCallID    string             `json:"toolCallId"`
	ToolName      string             `json:"toolName"`
	Args          map[string]any     `json:"args"`
	PartialResult agentToolResultOut `json:"partialResult"`
}

type toolEndOut struct {
	header
	ToolCallID string             `json:"toolCallId"`
	ToolName   string             `json:"toolName"`
	Result     agentToolResultOut `json:"result"`
	IsError    bool               `json:"isError"`
}

// agentToolResultOut is pi's AgentToolResult: what a tool returned, before it
// becomes a toolResult message.
type agentToolResultOut struct {
	Content []agent.Content `json:"content"`
	Details any             `json:"details,omitempty"`
}

type queueUpdateOut struct {
	header
	Steering []string    `json:"steering"`
	FollowUp []string    `json:"followUp"`
	Items    []QueueItem `json:"items"`
}

// QueueItem is one pending input as steer's clients see it.
type QueueItem struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// QueueItems converts pending inputs to their JSON shape; never nil.
func QueueItems(items []agent.QueueItem) []QueueItem {
	out := make([]QueueItem, len(items))
	for i, it := range items {
		out[i] = QueueItem{ID: it.ID, Kind: string(it.Kind), Text: it.Text}
	}
	return out
}

// eventOut returns the value whose JSON is ev in pi's shape. An event type
// added to the kernel later still goes out with its type and session.
func eventOut(ev agent.Event, sessionID string) any {
	h := header{Type: ev.Type(), SessionID: sessionID}
	switch e := ev.(type) {
	case agent.AgentStart, agent.TurnStart:
		return h
	case agent.AgentEnd:
		return agentEndOut{header: h, Messages: Messages(e.Messages)}
	case agent.TurnEnd:
		return turnEndOut{header: h, Message: (e.Message), ToolResults: Messages(e.ToolResults)}
	case agent.MessageStart:
		return messageEventOut{header: h, Message: (e.Message)}
	case agent.MessageEnd:
		return messageEventOut{header: h, Message: (e.Message)}
	case agent.MessageUpdate:
		return messageUpdateOut{header: h, Message: (e.Message), AssistantMessageEvent: assistantEvent(e.Event)}
	case agent.ToolExecutionStart:
		return toolStartOut{header: h, ToolCallID: e.ToolCallID, ToolName: e.ToolName, Args: argsOut(e.Args)}
	case agent.ToolExecutionUpdate:
		return toolUpdateOut{
			header: h, ToolCallID: e.ToolCallID, ToolName: e.ToolName, Args: argsOut(e.Args),
			PartialResult: agentToolResultOut{Content: contentList(e.Partial.Content), Details: e.Partial.Details},
		}
	case agent.ToolExecutionEnd:
		return toolEndOut{
			header: h, ToolCallID: e.ToolCallID, ToolName: e.ToolName, IsError: e.IsError,
			Result: agentToolResultOut{Content: contentList(e.Result.Content), Details: e.Result.Details},
		}
	case agent.QueueUpdate:
		out := queueUpdateOut{header: h, Steering: []string{}, FollowUp: []string{}, Items: QueueItems(e.Items)}
		for _, it := range e.Items {
			if it.Kind == agent.QueueFollowUp {
				out.FollowUp = append(out.FollowUp, it.Text)
			} else {
				out.Steering = append(out.Steering, it.Text)
			}
		}
		return out
	case agent.Annotation:
		return annotationOut(h, e.Data)
	default:
		return h
	}
}

// annotationOut is an annotation's type and session, first, then the fields
// of its Data (an object); Data that is no object goes under "data".
func annotationOut(h header, data any) any {
	head, err := agent.EncodeJSON(h)
	if err != nil {
		return h
	}
	raw, err := agent.EncodeJSON(data)
	if err != nil || len(raw) < 2 || raw[0] != '{' {
		return struct {
			header
			Data any `json:"data"`
		}{h, data}
	}
	if string(raw) == "{}" {
		return json.RawMessage(head)
	}
	return json.RawMessage(append(append(head[:len(head)-1:len(head)-1], ','), raw[1:]...))
}

// assistantEvent renders a provider streaming step with the fields pi's
// clients read for its type.
func assistantEvent(ev agent.AssistantEvent) assistantEventOut {
	out := assistantEventOut{Type: string(ev.Type)}
	switch ev.Type {
	case agent.EventStart:
	case agent.EventDone:
		out.Reason = string(ev.Reason)
		out.Message = (ev.Partial)
	case agent.EventError:
		out.Reason = string(ev.Reason)
		out.Error = (ev.Partial)
	default:
		index := ev.ContentIndex
		out.ContentIndex = &index
	}
	switch ev.Type {
	case agent.EventTextDelta, agent.EventThinkingDelta, agent.EventToolCallDelta:
		delta := ev.Delta
		out.Delta = &delta
	case agent.EventTextEnd, agent.EventThinkingEnd:
		content := ev.Content
		out.Content = &content
	case agent.EventToolCallEnd:
		if ev.ToolCall != nil {
			out.ToolCall = *ev.ToolCall
		}
	}
	return out
}

func argsOut(args map[string]any) map[string]any {
	if args == nil {
		return map[string]any{}
	}
	return args
}

// Messages never returns nil, so that an empty list encodes as [].
func Messages(msgs []agent.Message) []agent.Message {
	if msgs == nil {
		return []agent.Message{}
	}
	return msgs
}

// contentList never returns nil, so that empty content encodes as [].
func contentList(cs []agent.Content) []agent.Content {
	if cs == nil {
		return []agent.Content{}
	}
	return cs
}
