package contextguard

import (
	"cmp"
	"slices"

	"github.com/steer-tui/steer/agent"
)

// TruncateToolResultMessage cuts the text blocks of a tool result so that
// together they keep at most maxChars bytes (each plus its suffix), as
// TruncateToolResult does for one text. Images and other blocks are kept as
// they are. A short block keeps all of its text; the longer ones share what
// is left equally. m is not modified: a changed message is a copy with its own
// content slice, and changed says whether there is one.
func TruncateToolResultMessage(m agent.Message, maxChars int) (out agent.Message, changed bool) {
	if toolResultTextLen(m) <= maxChars {
		return m, false
	}
	var texts []int // indexes of text blocks, shortest first
	for i, c := range m.Content {
		if c.Type == agent.ContentText {
			texts = append(texts, i)
		}
	}
	slices.SortStableFunc(texts, func(a, b int) int { return cmp.Compare(len(m.Content[a].Text), len(m.Content[b].Text)) })
	out = m.Clone()
	left := max(maxChars, 0)
	for n, i := range texts {
		share := left / (len(texts) - n)
		text := out.Content[i].Text
		if cut := TruncateToolResult(text, share); cut != text {
			out.Content[i].Text = cut
			changed = true
		}
		left -= min(len(text), share)
	}
	if !changed {
		return m, false
	}
	return out, true
}

// toolResultTextLen is the bytes of text in m's text blocks.
func toolResultTextLen(m agent.Message) int {
	n := 0
	for _, c := range m.Content {
		if c.Type == agent.ContentText {
			n += len(c.Text)
		}
	}
	return n
}

// TruncateToolResults cuts every tool result of msgs to limit, as the
// overflow recovery does to the stored session when compaction was not
// enough (SPEC §6.3); limit is ToolResultLimit of the window. msgs is not
// modified: out is a copy when truncated > 0, else msgs itself.
func TruncateToolResults(msgs []agent.Message, limit int) (out []agent.Message, truncated int) {
	out = msgs
	for i, m := range msgs {
		if m.Role != agent.RoleToolResult {
			continue
		}
		if cut, changed := TruncateToolResultMessage(m, limit); changed {
			if truncated == 0 {
				out = append([]agent.Message(nil), msgs...)
			}
			out[i] = cut
			truncated++
		}
	}
	return out, truncated
}
