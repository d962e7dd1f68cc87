package input

import (
	"strings"

	"github.com/steer-tui/steer/tui/msgs"
)

// shellLine reads a line that starts with "!" as a shell command for the
// runtime: "!cmd" runs it and shows the model its output, "!!cmd" keeps the
// output from the model. It is nil for any other line; a "!" or "!!"
// alone is text.
func shellLine(text string) *msgs.ShellMsg {
	if !strings.HasPrefix(text, "!") {
		return nil
	}
	private := strings.HasPrefix(text, "!!")
	cmd := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(text, "!"), "!"))
	if cmd == "" {
		return nil
	}
	return &msgs.ShellMsg{Command: cmd, Private: private}
}
