package export

import (
	"encoding/json"

	"github.com/steer-tui/steer/agent"
)

// message returns a redacted copy of m: text, thinking, tool arguments, tool
// output, error text and details. Signatures and image data stay as they are
// (see the package doc).
func (r *Redactor) message(m agent.Message) agent.Message {
	m = m.Clone()
	for i, c := range m.Content {
		c.Text = r.String(c.Text)
		c.Thinking = r.String(c.Thinking)
		if c.Arguments != nil {
			c.Arguments, _ = r.value(c.Arguments).(map[string]any)
		}
		m.Content[i] = c
	}
	m.ErrorMessage = r.String(m.ErrorMessage)
	if m.Error != nil {
		pe := *m.Error
		pe.Message = r.String(pe.Message)
		pe.Body = r.String(pe.Body)
		m.Error = &pe
	}
	if m.Details != nil {
		m.Details = r.value(plain(m.Details))
	}
	return m
}

// value returns a redacted copy of a plain JSON value, keys included.
func (r *Redactor) value(v any) any {
	switch v := v.(type) {
	case string:
		return r.String(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[r.String(k)] = r.value(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = r.value(x)
		}
		return out
	default:
		return v
	}
}

// plain turns a tool's typed details into plain JSON values, so that every
// string in them can be redacted; details JSON cannot encode are dropped,
// as the transcript store would drop them.
func plain(v any) any {
	switch v.(type) {
	case string, map[string]any, []any, float64, bool:
		return v
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if json.Unmarshal(data, &out) != nil {
		return nil
	}
	return out
}
