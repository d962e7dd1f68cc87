package contextguard

import "github.com/steer-tui/steer/agent"

// StripStaleThinkingSignatures returns msgs for replay with the thinking
// signatures that the newest compaction invalidated removed (SPEC §6.3,
// OpenClaw's stripStaleThinkingSignaturesForCompactionReplay): a signature
// binds a thinking block to the context it was produced in, and compaction
// replaced that context's prefix, so a provider would reject it ("Invalid
// signature in thinking block").
//
// Stale are the thinking blocks of assistant messages stamped before the
// newest summary (SummaryMessage), which includes the verbatim tail kept
// after it. A thinking block keeps its text and loses its signature; a
// redacted block, whose whole content is its signature, is dropped. Messages
// after the summary were produced in the new context and keep theirs. msgs is
// not modified; changed messages are copies, and without a summary msgs is
// returned as it is.
func StripStaleThinkingSignatures(msgs []agent.Message) []agent.Message {
	newest := -1
	for i := len(msgs) - 1; i >= 0; i-- {
		if IsSummary(msgs[i]) {
			newest = i
			break
		}
	}
	if newest < 0 {
		return msgs
	}
	at := msgs[newest].Timestamp
	var out []agent.Message
	for i, m := range msgs {
		if m.Role != agent.RoleAssistant || !m.Timestamp.Before(at) || !hasSignature(m) {
			continue
		}
		if out == nil {
			out = append([]agent.Message(nil), msgs...)
		}
		out[i] = withoutSignatures(m)
	}
	if out == nil {
		return msgs
	}
	return out
}

func hasSignature(m agent.Message) bool {
	for _, c := range m.Content {
		if c.Type == agent.ContentThinking && (c.Signature != "" || c.Redacted) {
			return true
		}
	}
	return false
}

func withoutSignatures(m agent.Message) agent.Message {
	kept := make([]agent.Content, 0, len(m.Content))
	for _, c := range m.Content {
		if c.Type == agent.ContentThinking {
			if c.Redacted {
				continue
			}
			c.Signature = ""
		}
		kept = append(kept, c)
	}
	m.Content = kept
	return m
}
