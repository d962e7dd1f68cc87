package agent

import "encoding/json"

// ParsePartialJSON parses a prefix of a JSON object, as tool-call arguments
// arrive in pieces: it closes what is open and drops a trailing token that cannot
// be completed yet (a half key, a half literal, a dangling colon). It returns an
// empty map when nothing usable has arrived and never fails.
//
// Each call costs time in proportion to all of raw, so the stream writer
// parses progressively with partialArgs, which agrees with this on every
// prefix; this stays the fallback for arguments that end as invalid JSON.
func ParsePartialJSON(raw string) map[string]any {
	var out map[string]any
	if json.Unmarshal([]byte(raw), &out) == nil && out != nil {
		return out
	}
	// Cut back to ever earlier safe points until the repaired text parses.
	for cut := len(raw); cut > 0; {
		repaired, next := closeJSON(raw[:cut])
		out = nil
		if json.Unmarshal([]byte(repaired), &out) == nil && out != nil {
			return out
		}
		if next >= cut {
			next = cut - 1
		}
		cut = next
	}
	return map[string]any{}
}

// closeJSON appends the closers that raw lacks (a quote, brackets) after
// trimming separators that cannot end a value. It also returns the last offset
// at which a value or container began, the next place to cut back to.
func closeJSON(raw string) (string, int) {
	var stack []byte
	inString, escaped := false, false
	lastStart := 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			lastStart = i
		case '{', '[':
			stack = append(stack, c)
			lastStart = i
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',', ':':
			lastStart = i
		}
	}
	body := raw
	if inString {
		if escaped {
			body = body[:len(body)-1]
		}
		body += `"`
	}
	for len(body) > 0 {
		last := body[len(body)-1]
		if last == ',' || last == ':' || last == ' ' || last == '\n' || last == '\t' || last == '\r' {
			body = body[:len(body)-1]
			continue
		}
		break
	}
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == '{' {
			body += "}"
		} else {
			body += "]"
		}
	}
	return body, lastStart
}
