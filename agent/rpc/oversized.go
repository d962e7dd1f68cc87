package rpc

import (
	"bytes"
	"encoding/json"
	"regexp"
)

// idScanBytes is how much of each end of an oversized line is kept to find
// its "id": enough for the fields around a long message (clients put the id
// first, or last as pi's RpcClient does), and no more, however long the
// line.
const idScanBytes = 4 << 10

// oversized keeps the two ends of a line too long to hold.
type oversized struct {
	head, tail []byte
}

// add appends the next piece of the line: the head fills up to idScanBytes,
// the tail keeps the last idScanBytes.
func (o *oversized) add(p []byte) {
	if room := idScanBytes - len(o.head); room > 0 {
		o.head = append(o.head, p[:min(room, len(p))]...)
	}
	o.tail = append(o.tail, p...)
	if extra := len(o.tail) - idScanBytes; extra > 0 {
		o.tail = append(o.tail[:0], o.tail[extra:]...)
	}
}

// id is the line's "id" when its ends show one (raw, as the client wrote
// it: a string or a number), else nil.
func (o *oversized) id() json.RawMessage {
	if id, ok := idFromHead(o.head); ok {
		return id
	}
	return idFromTail(o.tail)
}

// idFromHead reads the top-level fields of an object from its start until
// "id" or the cut; ok is false when the cut comes first.
func idFromHead(head []byte) (json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, false
		}
		if key == "id" {
			return plainID(value), true
		}
	}
	return nil, true // the whole object, without an id
}

// tailID is a field "id" with a string or number value, closed by the next
// field or the object's end. Inside a JSON string every quote is escaped, so
// an unescaped "id" followed by a colon is a key.
var tailID = regexp.MustCompile(`[{,]\s*"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*)\s*[,}]`)

// idFromTail finds the last "id" field in the end of a line.
func idFromTail(tail []byte) json.RawMessage {
	all := tailID.FindAllSubmatch(tail, -1)
	if len(all) == 0 {
		return nil
	}
	return plainID(all[len(all)-1][1])
}

// plainID is raw when it is a valid string or number, else nil: an id is
// echoed as it was written, and only those make sense.
func plainID(raw []byte) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || !json.Valid(raw) || (raw[0] != '"' && raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return nil
	}
	return append(json.RawMessage(nil), raw...)
}
