package runner

import (
	"errors"
	"fmt"
	"strings"

	"github.com/steer-tui/steer/agent"
)

// DefaultMaxInputBytes bounds one input unless the configuration says
// otherwise (agent.maxInputBytes): a pasted log or file is fine, a runaway
// pipe is not.
const DefaultMaxInputBytes = 4 << 20

// InputTooLargeError refuses an input over the limit; nothing of it is
// stored or queued.
type InputTooLargeError struct {
	Bytes, Limit int
}

func (e *InputTooLargeError) Error() string {
	return fmt.Sprintf("the input is %s, over the limit of %s (agent.maxInputBytes)", byteSize(e.Bytes), byteSize(e.Limit))
}

// ErrEmptyInput refuses an input with nothing to say: no text but spaces,
// and no image. Nothing of it is stored or queued.
var ErrEmptyInput = errors.New("the input is empty")

// checkInput refuses an empty input, and one larger than limit bytes,
// counting its text and its images' data and attached files' text.
func checkInput(text string, images []agent.Content, limit int) error {
	if strings.TrimSpace(text) == "" && len(images) == 0 {
		return ErrEmptyInput
	}
	n := len(text)
	for _, im := range images {
		n += len(im.Data) + len(im.Text)
	}
	if n > limit {
		return &InputTooLargeError{Bytes: n, Limit: limit}
	}
	return nil
}

func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// storedKind is the kind a pending input is saved under. The database knows
// steering, follow-ups and shell commands (migrations 0001 and 0016 check
// it), so a collected input resumes after a crash as a follow-up, and an
// interrupt, whose abort is done by then, as steering.
func storedKind(k agent.QueueKind) agent.QueueKind {
	switch k {
	case agent.QueueCollect:
		return agent.QueueFollowUp
	case agent.QueueInterrupt:
		return agent.QueueSteer
	}
	return k
}

// ByteSize words n bytes for people: "512 bytes", "4.0 MiB".
func ByteSize(n int) string { return byteSize(n) }
