package agent

import "encoding/json"

// CommandDetails are the Details of a tool result (and of its partial
// updates) from a tool that runs a command, such as bash: what a UI shows
// beside the output. They round-trip through JSON, so a transcript loaded
// from the database reads the same as a live result.
type CommandDetails struct {
	// ExitCode is the command's exit status; 128+n when signal n killed it,
	// never 0 for a command that was stopped.
	ExitCode int `json:"exitCode"`
	// DurationMs is the wall time of the command.
	DurationMs int64 `json:"durationMs"`
	// Truncated is set when only part of the output is kept.
	Truncated bool `json:"truncated"`
	// OutputBytes is the output's size (so far, in a partial result: an
	// update while the command runs, which carries these fields too).
	OutputBytes int64 `json:"outputBytes,omitempty"`
	// TailStart and TailEnd locate, in the result's text, the latest output
	// verbatim (the whole output when nothing was cut); both 0 when the text
	// holds none. TailEndsAt is where that tail ends in the output:
	// OutputBytes, less a final line end the text leaves off. A reader
	// following the output live takes from each tail the bytes past what it
	// has already seen.
	TailEndsAt int64 `json:"tailEndsAt,omitempty"`
	TailStart  int   `json:"tailStart,omitempty"`
	TailEnd    int   `json:"tailEnd,omitempty"`
	// FullOutputPath is the file that keeps the whole output (or as much of
	// it as is kept), set when the output was cut and the file written.
	FullOutputPath string `json:"fullOutputPath,omitempty"`
	// TimedOut and Aborted say why a command was stopped, if it was.
	TimedOut bool `json:"timedOut"`
	Aborted  bool `json:"aborted"`
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
