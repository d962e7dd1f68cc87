package term

import (
	"bytes"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// SyncTimeout is how long AskSync waits for the terminal: a terminal
// answers within milliseconds or not at all, and the first frame waits for
// the question (the budget: at most 200 ms a query).
const SyncTimeout = 200 * time.Millisecond

// AskSync reports whether the controlling terminal supports synchronized
// output: it asks with DECRQM (CSI ? 2026 $ p) and waits at most timeout.
// A terminal that does not answer, or has no /dev/tty, does not.
func AskSync(timeout time.Duration) bool {
	answer, ok := AskTTY(ansi.RequestModeSynchronizedOutput, timeout)
	return ok && SyncSupported(answer)
}

// SyncSupported reads the terminal's answers for the DECRQM report of mode
// 2026, "CSI ? 2026 ; Ps $ y": Ps 1 (set) or 2 (reset) mean the terminal
// knows the mode; 0 (unknown), 4 (permanently reset) or no report mean it
// cannot synchronize. (3, permanently set, draws every frame at once
// anyway: nothing to bracket.)
func SyncSupported(answer []byte) bool {
	const report = "\x1b[?2026;"
	i := bytes.Index(answer, []byte(report))
	if i < 0 {
		return false
	}
	rest := answer[i+len(report):]
	return len(rest) >= 3 && (rest[0] == '1' || rest[0] == '2') && rest[1] == '$' && rest[2] == 'y'
}
