package contextguard

import "github.com/steer-tui/steer/agent"

// DefaultKeepTailTokens is how much recent conversation a compaction keeps
// verbatim. (seed)
const DefaultKeepTailTokens = 20_000

// maxTailWindowPercent caps the kept tail at a quarter of the window, so that
// on a small model the summary and the next turn still have room.
const maxTailWindowPercent = 25

// keepTailTokens is the tail to keep for a window of window tokens (0:
// unknown) when keep is asked (0: DefaultKeepTailTokens).
func keepTailTokens(keep, window int) int {
	if keep <= 0 {
		keep = DefaultKeepTailTokens
	}
	if window > 0 {
		keep = min(keep, window*maxTailWindowPercent/100)
	}
	return keep
}

// FindCut returns the index of the first message a compaction keeps: msgs[cut:]
// holds at least keepTokens (by est) of the most recent messages, and msgs[:cut]
// is what the summary replaces. The cut never falls between an assistant's
// tool calls and their results: it moves back past tool results to the message
// that asked for them, so the tail starts with a user or an assistant message.
// It is 0 when everything fits in the tail.
func FindCut(msgs []agent.Message, keepTokens int, est *Estimator) int {
	cut, kept := len(msgs), 0
	for cut > 0 && kept < keepTokens {
		cut--
		kept += est.Message(msgs[cut])
	}
	for cut > 0 && cut < len(msgs) && msgs[cut].Role == agent.RoleToolResult {
		cut--
	}
	return cut
}
