package anthropic

import (
	"encoding/json"

	"github.com/steer-tui/steer/agent/llm/jsonscan"
)

// messageEvent is what the handler reads of one streamed Messages event.
// eventDecoder fills it in place from the event's bytes: the SDK's generic
// decoder of its event union cost ~10× as much per event (issue 16). A field
// of the wrong JSON type counts as absent; strings are decoded as
// encoding/json decodes them (invalid UTF-8 becomes U+FFFD, which the SDK
// passed through); the type names the API documents are shared constants,
// so that reading them allocates nothing.
type messageEvent struct {
	Type         string
	MessageUsage usageCounts // message_start: message.usage
	ContentBlock contentBlock
	Delta        eventDelta
	Usage        usageCounts // message_delta: the cumulative counts
}

type contentBlock struct {
	Type      string
	Text      string
	Thinking  string
	Signature string
	Data      string // redacted_thinking
	ID        string
	Name      string
	// Input is a tool_use block's input as JSON when it is a non-empty
	// object (sent whole, when no input_json_delta follows), keys sorted.
	Input string
}

type eventDelta struct {
	Type        string
	Text        string
	Thinking    string
	Signature   string
	PartialJSON string
	StopReason  string
}

// usageCounts are token counts; a count the event does not carry has its
// Has flag false.
type usageCounts struct {
	Input, Output, CacheRead, CacheWrite             int64
	HasInput, HasOutput, HasCacheRead, HasCacheWrite bool
}

// knownNames are the type and stop-reason names the API sends, read without
// allocating.
var knownNames = []string{
	"message_start", "message_delta", "message_stop", "content_block_start", "content_block_delta",
	"content_block_stop", "text", "thinking", "redacted_thinking", "tool_use", "text_delta",
	"thinking_delta", "signature_delta", "input_json_delta", "end_turn", "max_tokens", "stop_sequence",
	"pause_turn", "refusal", "model_context_window_exceeded",
}

// eventDecoder decodes the events of one stream, reusing one event: a
// decoded event is valid until the next decode.
type eventDecoder struct{ event messageEvent }

// decode reads the event v, a JSON object. Like the SDK, it reads the first
// of duplicated members.
func (d *eventDecoder) decode(v jsonscan.Value) *messageEvent {
	ev := &d.event
	*ev = messageEvent{Type: nameMember(v, "type")}
	if msg, ok := v.Member("message"); ok {
		u, _ := msg.Member("usage")
		ev.MessageUsage = countsFrom(u)
	}
	if cb, ok := v.Member("content_block"); ok {
		ev.ContentBlock = contentBlock{
			Type: nameMember(cb, "type"), Text: strMember(cb, "text"), Thinking: strMember(cb, "thinking"),
			Signature: strMember(cb, "signature"), Data: strMember(cb, "data"),
			ID: strMember(cb, "id"), Name: strMember(cb, "name"),
		}
		in, _ := cb.Member("input")
		ev.ContentBlock.Input = objectJSON(in)
	}
	if dv, ok := v.Member("delta"); ok {
		ev.Delta = eventDelta{
			Type: nameMember(dv, "type"), Text: strMember(dv, "text"), Thinking: strMember(dv, "thinking"),
			Signature: strMember(dv, "signature"), PartialJSON: strMember(dv, "partial_json"),
			StopReason: nameMember(dv, "stop_reason"),
		}
	}
	if u, ok := v.Member("usage"); ok {
		ev.Usage = countsFrom(u)
	}
	return ev
}

func countsFrom(v jsonscan.Value) usageCounts {
	var u usageCounts
	u.Input, u.HasInput = intMember(v, "input_tokens")
	u.Output, u.HasOutput = intMember(v, "output_tokens")
	u.CacheRead, u.HasCacheRead = intMember(v, "cache_read_input_tokens")
	u.CacheWrite, u.HasCacheWrite = intMember(v, "cache_creation_input_tokens")
	return u
}

// objectJSON re-encodes a non-empty object as encoding/json does a map
// (sorted keys); "" for anything else. Tool inputs arrive whole only on
// content_block_start, so this is off the per-delta path.
func objectJSON(v jsonscan.Value) string {
	if v.Kind() != jsonscan.Object {
		return ""
	}
	var m map[string]any
	if json.Unmarshal(v.Raw(), &m) != nil || len(m) == 0 {
		return ""
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return ""
	}
	return string(raw)
}

// nameMember is strMember for members that hold one of knownNames.
func nameMember(v jsonscan.Value, name string) string {
	m, _ := v.Member(name)
	s, _ := m.Intern(knownNames)
	return s
}

// strMember is the object's string member name, "" when it is missing or
// not a string.
func strMember(v jsonscan.Value, name string) string {
	m, _ := v.Member(name)
	s, _ := m.Str()
	return s
}

// intMember is the object's integer member name; ok is false when it is
// missing or not a number.
func intMember(v jsonscan.Value, name string) (n int64, ok bool) {
	m, _ := v.Member(name)
	return m.Int()
}
