package contextguard

import (
	"strings"
	"time"

	"github.com/steer-tui/steer/agent"
)

// A compaction summary is stored as a user message: every provider accepts
// one, and the model reads it as context given to it rather than as
// something it said. Its text opens with summaryOpening and wraps the
// summary in <summary> tags, so that neither the model nor a later
// compaction mistakes it for the user's words.
const (
	summaryOpening = "The conversation before this point was compacted into the following summary:\n\n<summary>\n"
	summaryClosing = "\n</summary>"
)

// SummaryMessage is the message that stands for the compacted part of a
// session. at is when the compaction ran: messages stamped before it were
// sent with the old context (see StripStaleThinkingSignatures).
func SummaryMessage(summary string, at time.Time) agent.Message {
	return agent.UserMessage(summaryOpening+summary+summaryClosing, at)
}

// IsSummary reports whether m is a compaction summary made by SummaryMessage.
func IsSummary(m agent.Message) bool {
	_, ok := SummaryText(m)
	return ok
}

// SummaryText returns the summary a SummaryMessage holds.
func SummaryText(m agent.Message) (string, bool) {
	if m.Role != agent.RoleUser || len(m.Content) != 1 || m.Content[0].Type != agent.ContentText {
		return "", false
	}
	rest, ok := strings.CutPrefix(m.Content[0].Text, summaryOpening)
	if !ok {
		return "", false
	}
	return strings.TrimSuffix(rest, summaryClosing), true
}
