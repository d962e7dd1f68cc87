package engines

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/steer-tui/steer/agent"
)

// ProtocolVersion is the version of the external engine protocol
// (assets/context-engines.md) that steer speaks; the info request carries it.
const ProtocolVersion = 1

// maxLineBytes bounds one line from an engine. An answer carries a whole
// assembled transcript, which can be megabytes; past this it is not an
// answer but a runaway.
const maxLineBytes = 64 << 20

// excerptBytes is how much of a line that is not an answer an error quotes.
const excerptBytes = 200

// request is one line to the engine.
type request struct {
	ID     uint64 `json:"id"`
	Method Method `json:"method"`
	Params any    `json:"params"`
}

// infoParams are the params of the info request, the first one a process
// gets.
type infoParams struct {
	Protocol int    `json:"protocol"`
	Engine   string `json:"engine"`
}

// infoResult is what the engine answers to info; the name is steer's own.
type infoResult struct {
	Version        string `json:"version"`
	OwnsCompaction bool   `json:"ownsCompaction"`
}

// response is one line from the engine: an id and either a result or an
// error.
type response struct {
	ID     *uint64         `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// RemoteError is an error an engine answered with.
type RemoteError struct {
	Message string
}

func (e *RemoteError) Error() string { return "the engine answered with an error: " + e.Message }

// reply is the outcome of one request: its raw result or its error.
type reply struct {
	result json.RawMessage
	err    error
}

// encodeRequest renders one request line, newline included.
func encodeRequest(id uint64, m Method, params any) ([]byte, error) {
	b, err := agent.EncodeJSON(request{ID: id, Method: m, Params: params})
	if err != nil {
		return nil, fmt.Errorf("encode the %s request: %w", m, err)
	}
	return append(b, '\n'), nil
}

// decodeResponse parses one line from the engine. A line that is not a
// response with an id is a broken stream (bad), which no request can be
// blamed for alone; a response to request id that holds neither a result
// nor an error, or both, is that request's invalid output.
func decodeResponse(line []byte) (id uint64, r reply, bad error) {
	var resp response
	if err := json.Unmarshal(line, &resp); err != nil {
		return 0, reply{}, &Failure{Reason: ReasonInvalidOutput, Err: fmt.Errorf("the engine wrote a line that is not JSON (%v): %s", err, excerpt(line))}
	}
	if resp.ID == nil {
		return 0, reply{}, &Failure{Reason: ReasonInvalidOutput, Err: fmt.Errorf("the engine wrote a line without an id: %s", excerpt(line))}
	}
	id = *resp.ID
	switch hasResult := len(resp.Result) > 0; {
	case resp.Error != nil && hasResult:
		r.err = &Failure{Reason: ReasonInvalidOutput, Err: errors.New("the engine answered with both a result and an error")}
	case resp.Error != nil:
		r.err = &RemoteError{Message: resp.Error.Message}
	case !hasResult:
		r.err = &Failure{Reason: ReasonInvalidOutput, Err: errors.New("the engine answered with neither a result nor an error")}
	default:
		r.result = resp.Result
	}
	return id, r, nil
}

// decodeResult parses the result of method m into a T.
func decodeResult[T any](m Method, raw json.RawMessage) (T, error) {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, &Failure{Reason: ReasonInvalidOutput, Err: fmt.Errorf("the %s result does not parse: %w", m, err)}
	}
	return v, nil
}

// excerpt quotes the start of a line for an error message.
func excerpt(line []byte) string {
	line = bytes.TrimRight(line, "\r\n")
	if len(line) > excerptBytes {
		return fmt.Sprintf("%q…", line[:excerptBytes])
	}
	return fmt.Sprintf("%q", line)
}
