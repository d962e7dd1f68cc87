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

// ForcedCut is where a forced compaction (/compact, rpc compact) cuts
// msgs, given tailCut, the cut FindCut chose: a forced compaction summarises
// even a session that fits in the kept tail. When the part before tailCut
// holds new conversation worth a summary (at least MinSummarizedTokens),
// tailCut stands, as for every other trigger. Otherwise only the last turn
// stays verbatim — the last user message that is not a summary and all that
// follows it (or the part of it tailCut keeps, if less) — which never cuts
// between a tool call and its result, since a user message follows both.
// A session of one turn, or whose only earlier messages are summaries, is
// summarised whole: ForcedCut is then len(msgs) and nothing is kept.
func ForcedCut(msgs []agent.Message, tailCut int, est *Estimator) int {
	if hasNewConversation(msgs[:tailCut]) && est.Messages(msgs[:tailCut]) >= MinSummarizedTokens {
		return tailCut
	}
	cut := max(tailCut, lastTurnStart(msgs))
	if !hasNewConversation(msgs[:cut]) {
		return len(msgs)
	}
	return cut
}

// lastTurnStart is the index of the last user message that is not a
// compaction summary (0 when there is none).
func lastTurnStart(msgs []agent.Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == agent.RoleUser && !IsSummary(msgs[i]) {
			return i
		}
	}
	return 0
}
