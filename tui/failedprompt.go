package tui

import (
	"strings"

	"github.com/steer-tui/steer/agent"
)

// A prompt whose run failed before any of an answer was shown comes back
// into an empty editor, so that Enter sends it again: a network error, or
// every profile cooling down beyond the wait, should not cost the user the
// text they typed. An abort (Esc) is no failure, and an answer that showed
// any text or tool call has been read: neither brings anything back.

// unanswered returns the text of the prompts of a run that ended in a
// failure (stopReason error) with nothing of an answer shown, given the
// messages the run added (agent_end); false when the run was answered in
// part, aborted, or did not fail.
func unanswered(run []agent.Message) (string, bool) {
	if len(run) == 0 {
		return "", false
	}
	if last := run[len(run)-1]; last.Role != agent.RoleAssistant || last.StopReason != agent.StopReasonError {
		return "", false
	}
	var prompts []string
	for _, msg := range run {
		switch msg.Role {
		case agent.RoleAssistant:
			if shown(msg) {
				return "", false
			}
		case agent.RoleToolResult:
			return "", false
		case agent.RoleUser:
			if t := msg.Typed(); strings.TrimSpace(t) != "" {
				prompts = append(prompts, t)
			}
		}
	}
	return strings.Join(prompts, "\n"), len(prompts) > 0
}

// shown reports whether an assistant message showed text or a tool call.
func shown(msg agent.Message) bool {
	for _, c := range msg.Content {
		if strings.TrimSpace(c.Text) != "" || c.Type == agent.ContentToolCall {
			return true
		}
	}
	return false
}

// restoreFailedPrompt puts the prompt of a failed run that showed nothing
// back into the editor, when the editor is empty.
func (m Model) restoreFailedPrompt(end agent.AgentEnd) (Model, bool) {
	text, ok := unanswered(end.Messages)
	if !ok || strings.TrimSpace(m.input.Value()) != "" || m.input.Holding() != "" {
		return m, false
	}
	m.input.SetValue(text)
	return m.setFocus(focusInput), true
}
