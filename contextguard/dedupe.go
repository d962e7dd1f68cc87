package contextguard

import (
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/steer-tui/steer/agent"
)

// The duplicate rule of SPEC §6.3. (seed)
const (
	// DuplicateWindow: a repeat this close to the previous copy is a resend
	// (a retry, a client sending twice), not the user asking again.
	DuplicateWindow = 60 * time.Second
	// minDuplicateChars: short replies ("ok", "continue") repeat for real.
	minDuplicateChars = 24
)

// DedupeUserMessages drops user messages that repeat an earlier one before a
// compaction, so that resends do not inflate the summary: same text once
// whitespace is folded, NFC-normalised and lower-cased, at least 24
// characters, stamped within DuplicateWindow of the previous copy. The first
// copy is kept. Messages with an image, without a timestamp, and summaries
// are never dropped. msgs is not modified; dropped counts what was left out.
func DedupeUserMessages(msgs []agent.Message) (kept []agent.Message, dropped int) {
	lastSeen := map[string]time.Time{}
	for i, m := range msgs {
		key, ok := duplicateKey(m)
		if !ok {
			if kept != nil {
				kept = append(kept, m)
			}
			continue
		}
		last, seen := lastSeen[key]
		lastSeen[key] = m.Timestamp
		if !seen || absDuration(m.Timestamp.Sub(last)) > DuplicateWindow {
			if kept != nil {
				kept = append(kept, m)
			}
			continue
		}
		if kept == nil {
			kept = append(make([]agent.Message, 0, len(msgs)-1), msgs[:i]...)
		}
		dropped++
	}
	if kept == nil {
		return msgs, 0
	}
	return kept, dropped
}

// duplicateKey is the normalised text by which user message m is compared,
// or false when m is never dropped.
func duplicateKey(m agent.Message) (string, bool) {
	if m.Role != agent.RoleUser || m.Timestamp.IsZero() || IsSummary(m) {
		return "", false
	}
	var parts []string
	for _, c := range m.Content {
		switch c.Type {
		case agent.ContentImage:
			return "", false
		case agent.ContentText:
			parts = append(parts, c.Text)
		}
	}
	text := strings.Join(strings.Fields(strings.Join(parts, "\n")), " ")
	if utf8.RuneCountInString(text) < minDuplicateChars {
		return "", false
	}
	return strings.ToLower(norm.NFC.String(text)), true
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}
