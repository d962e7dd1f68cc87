package rpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/steer-tui/steer/agent"
)

// command is one parsed command line: its type, its id (raw, echoed as sent,
// nil when absent) and its other fields, decoded on demand so that a field of
// the wrong type is reported by name.
type command struct {
	id     json.RawMessage
	typ    string
	fields map[string]json.RawMessage
}

// response is the one answer to a command.
type response struct {
	Type    string          `json:"type"`
	ID      json.RawMessage `json:"id,omitempty"`
	Command string          `json:"command"`
	Success bool            `json:"success"`
	Error   string          `json:"error,omitempty"`
	Data    any             `json:"data,omitempty"`
}

// parseCommand parses a line; on failure the returned command still carries
// the id when one could be read.
func parseCommand(line []byte) (command, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return command{}, fmt.Errorf("expected a JSON object, got %s", typeErr.Value)
		}
		return command{}, err
	}
	if fields == nil {
		return command{}, errors.New("expected a JSON object, got null")
	}
	c := command{id: fields["id"], fields: fields}
	raw, ok := fields["type"]
	if !ok {
		return c, errors.New(`missing "type"`)
	}
	if err := json.Unmarshal(raw, &c.typ); err != nil {
		return c, errors.New(`"type" must be a string`)
	}
	if c.typ == "" {
		return c, errors.New(`"type" is empty`)
	}
	return c, nil
}

// has reports whether the field is present and not null.
func (c command) has(name string) bool {
	raw, ok := c.fields[name]
	return ok && !bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// optString returns a string field, "" when absent or null.
func (c command) optString(name string) (string, error) {
	if !c.has(name) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(c.fields[name], &s); err != nil {
		return "", fmt.Errorf("%q must be a string", name)
	}
	return s, nil
}

// requiredString returns a string field that must be present.
func (c command) requiredString(name string) (string, error) {
	if !c.has(name) {
		return "", fmt.Errorf("%s needs %q", c.typ, name)
	}
	return c.optString(name)
}

// userInput returns the message and images of prompt, steer and follow_up.
func (c command) userInput() (string, []agent.Content, error) {
	text, err := c.requiredString("message")
	if err != nil {
		return "", nil, err
	}
	images, err := c.images()
	if err != nil {
		return "", nil, err
	}
	if text == "" && len(images) == 0 {
		return "", nil, errors.New(`"message" is empty`)
	}
	return text, images, nil
}

// images parses the optional "images" field: pi's {"type":"image","data",
// "mimeType"} blocks or the {"type":"image","source":{…}} form.
func (c command) images() ([]agent.Content, error) {
	if !c.has("images") {
		return nil, nil
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(c.fields["images"], &raw); err != nil {
		return nil, fmt.Errorf(`"images" must be an array of image blocks: %v`, err)
	}
	images := make([]agent.Content, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal(r, &images[i]); err != nil {
			return nil, fmt.Errorf("images[%d]: %v", i, err)
		}
		if images[i].Type != agent.ContentImage {
			return nil, fmt.Errorf(`images[%d]: type must be "image", got %q`, i, images[i].Type)
		}
	}
	return images, nil
}
