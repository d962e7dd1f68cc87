package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/steer-tui/steer/agent"
)

// argsJSON renders tool arguments as indented JSON, without HTML escaping.
func argsJSON(args map[string]any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if args == nil {
		args = map[string]any{}
	}
	if err := enc.Encode(args); err != nil {
		return fmt.Sprintf("%v", args)
	}
	return strings.TrimRight(b.String(), "\n")
}

// resultText is a tool result's output as text; an image says so.
func resultText(m agent.Message) string {
	var b strings.Builder
	for _, c := range m.Content {
		switch c.Type {
		case agent.ContentText:
			b.WriteString(c.Text)
		case agent.ContentImage:
			fmt.Fprintf(&b, "[image %s]", c.MimeType)
		}
	}
	return b.String()
}

// fence returns a backtick fence longer than any backtick run in s.
func fence(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// marker is the one-line description of a non-message entry.
func marker(e *Entry) string {
	switch e.Type {
	case TypeCompaction:
		return fmt.Sprintf("Compacted: %d → %d tokens, kept from %s", e.TokensBefore, e.TokensAfter, e.FirstKeptID)
	case TypeBranchSummary:
		return "Summary of the branch left here"
	case TypeModelChange:
		return "Model changed to " + e.Model
	case TypeThinkingChange:
		return "Thinking set to " + e.Thinking
	case TypeApprovalChange:
		return "Tool approval set to " + e.Approval
	case TypeLabel:
		return "Label: "
	case TypeRewind:
		return RewindLine(e.Scope, e.TargetID, e.Files)
	}
	return e.Type
}
