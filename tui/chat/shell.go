package chat

import (
	"github.com/steer-tui/steer/agent"
)

// The user's own shell commands (`!cmd`, `!!cmd`) show as tool blocks: the
// command, its output (open, since the user ran it to see it), the exit
// code. Live, the bash tool's events make the block and the user message
// that records the command settles it; loaded, the message alone makes it.
// A `!!` block says the model never sees it.

// The marks that stand for bash in a shell block's header.
const (
	shellMark        = "!"
	shellPrivateMark = "!!"
	// privateNote is a `!!` block's meta.
	privateNote = "not sent to the model"
)

// shellBlock gives the message recording a shell command its block; ok is
// false for any other message.
func (m *Model) shellBlock(msg agent.Message) bool {
	d, ok := agent.ShellDetailsOf(msg.Details)
	if !ok || msg.Role != agent.RoleUser {
		return false
	}
	t := m.tool(d.ToolCallID, "bash")
	if t.args == nil {
		t.args = map[string]any{"command": d.Command}
	}
	t.shell, t.open = shellMark, true
	if d.Private {
		t.shell = shellPrivateMark
	}
	if t.state != toolDone {
		res := agent.ToolResult{Content: msg.Content, IsError: d.IsError}
		if d.Result != nil {
			res.Details = *d.Result
		}
		t.finish(res, d.IsError, msg.Timestamp)
	}
	m.touch(t)
	return true
}
