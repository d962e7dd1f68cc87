package agent

import "encoding/json"

// CommandDetails are the Details of a tool result from a tool that runs a
// command, such as bash: what a UI shows beside the output. They round-trip
// through JSON, so a transcript loaded from the database reads the same as
// a live result.
type CommandDetails struct {
	// ExitCode is the command's exit status; 128+n when signal n killed it,
	// never 0 for a command that was stopped.
	ExitCode int `json:"exitCode"`
	// DurationMs is the wall time of the command.
	DurationMs int64 `json:"durationMs"`
	// Truncated is set when only part of the output is kept.
	Truncated bool `json:"truncated"`
	// OutputWindow says where the result's text stands in the output.
	OutputWindow
	// FullOutputPath is the file that keeps the whole output (or as much of
	// it as is kept), set when the output was cut and the file written.
	FullOutputPath string `json:"fullOutputPath,omitempty"`
	// TimedOut and Aborted say why a command was stopped, if it was.
	TimedOut bool `json:"timedOut"`
	Aborted  bool `json:"aborted"`
}

// OutputWindow says where a command's result text, or a partial result's
// (whose Details it is alone, while the command runs), stands in the output:
// a reader following the output live takes from each tail the bytes past what
// it has already seen.
type OutputWindow struct {
	// OutputBytes is the output's size (so far, in a partial result).
	OutputBytes int64 `json:"outputBytes,omitempty"`
	// TailStart and TailEnd locate, in the text, the latest output verbatim
	// (the whole output when nothing was cut); TailEndsAt is where that tail
	// ends in the output: OutputBytes, less a final line end the text leaves
	// off. All are 0 when the text holds no such tail (no output, or output
	// that is not valid UTF-8 and was mended).
	TailEndsAt int64 `json:"tailEndsAt,omitempty"`
	TailStart  int   `json:"tailStart,omitempty"`
	TailEnd    int   `json:"tailEnd,omitempty"`
	// Partial, in a partial result, says that its text leaves some of the
	// output so far out.
	Partial bool `json:"partial,omitempty"`
}

// OutputWindowOf reads a result's Details as an OutputWindow: a partial
// result's own, or a command result's; ok is false for details of another
// shape or without a tail.
func OutputWindowOf(details any) (w OutputWindow, ok bool) {
	switch v := details.(type) {
	case OutputWindow:
		w = v
	case CommandDetails:
		w = v.OutputWindow
	default:
		return OutputWindow{}, false
	}
	return w, w.TailEnd > 0
}

// CommandDetailsOf reads a result's Details as CommandDetails, whether they
// are the tool's own value or came back from JSON; ok is false for details of
// another shape.
func CommandDetailsOf(details any) (d CommandDetails, ok bool) {
	switch v := details.(type) {
	case CommandDetails:
		return v, true
	case *CommandDetails:
		if v != nil {
			return *v, true
		}
	case map[string]any:
		if _, ok := v["exitCode"]; !ok {
			return CommandDetails{}, false
		}
		raw, err := json.Marshal(v)
		if err == nil && json.Unmarshal(raw, &d) == nil {
			return d, true
		}
	}
	return CommandDetails{}, false
}
