package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// The user's own shell commands (`!cmd` and `!!cmd` in the TUI) are inputs
// like prompts: queued while a run is active (as follow-ups: they run when
// the agent would stop), saved as pending inputs, and run by the loop, not
// the model. The loop runs each through the run's bash tool, so that the
// approval policy, the workspace and the output limits apply and its
// events (tool_execution_*, the approval request) are those of a model's
// call, and records it as a user message whose Details are ShellDetails.
// A run whose inputs were only shell commands asks the model nothing.
//
// The model sees a `!` command and its output as user text in its next
// request (ForModel); a `!!` command (Private) is the user's alone: shown
// and saved, never sent.

// The kinds of a shell command's input.
const (
	// QueueShell runs the command; the model sees its output.
	QueueShell QueueKind = "shell"
	// QueueShellPrivate runs the command for the user alone.
	QueueShellPrivate QueueKind = "shell_private"
)

// shellTool is the tool a shell command runs through.
const shellTool = "bash"

// ShellDetails are the Details of the user message that records a shell
// command the user ran; its content is the command's output as the bash
// tool returned it. They round-trip through JSON.
type ShellDetails struct {
	Command string `json:"shellCommand"`
	// Private says the model never sees it (`!!`).
	Private bool `json:"excludeFromContext,omitempty"`
	// ToolCallID is the id its tool events carried.
	ToolCallID string `json:"toolCallId,omitempty"`
	// IsError is the bash result's: a non-zero exit, a timeout, an
	// abort, a refusal.
	IsError bool `json:"isError,omitempty"`
	// Result is the bash tool's details (exit code, duration, where the
	// full output went); nil when the command did not run (refused).
	Result *CommandDetails `json:"result,omitempty"`
	// request marks the input not yet run, as the queue hands it to the
	// loop; it is never saved.
	request bool
}

// ShellDetailsOf reads a message's Details as ShellDetails, whether they are
// the loop's own value or came back from JSON.
func ShellDetailsOf(details any) (ShellDetails, bool) {
	switch v := details.(type) {
	case ShellDetails:
		return v, true
	case map[string]any:
		if _, ok := v["shellCommand"].(string); !ok {
			return ShellDetails{}, false
		}
		var d ShellDetails
		raw, err := json.Marshal(v)
		if err == nil && json.Unmarshal(raw, &d) == nil {
			return d, true
		}
	}
	return ShellDetails{}, false
}

// isShell reports whether items of kind k are shell commands.
func (k QueueKind) isShell() bool { return k == QueueShell || k == QueueShellPrivate }

// shellRequest is the message a queued shell command reaches the loop as.
func (it QueueItem) shellRequest(at time.Time) Message {
	return Message{Role: RoleUser, Content: []Content{Text(it.Text)}, Timestamp: at, QueueItemID: it.ID,
		Details: ShellDetails{Command: it.Text, Private: it.Kind == QueueShellPrivate, request: true}}
}

// pendingShell is the command of a shell input the loop has yet to run.
func pendingShell(m Message) (ShellDetails, bool) {
	d, ok := m.Details.(ShellDetails)
	return d, ok && d.request
}

// forModel reports whether some of msgs is for the model: anything but the
// user's shell commands.
func forModel(msgs []Message) bool {
	for _, m := range msgs {
		if _, ok := pendingShell(m); !ok {
			return true
		}
	}
	return false
}

// appendInputs records the inputs, running the shell commands among them.
func (l *loop) appendInputs(msgs []Message) {
	for _, m := range msgs {
		if d, ok := pendingShell(m); ok {
			l.runShell(m, d)
			continue
		}
		l.appendMessage(m)
	}
}

// runShell runs a shell input through the bash tool, with the events of a
// tool call, and records it with its output.
func (l *loop) runShell(m Message, d ShellDetails) {
	call := ToolCall(shellCallID(), shellTool, map[string]any{"command": d.Command})
	r := l.runCalls(context.WithValue(l.ctx, userShellKey{}, true), []Content{call})[0]
	d.request, d.ToolCallID, d.IsError = false, call.ID, r.IsError
	if res, ok := CommandDetailsOf(r.Details); ok {
		d.Result = &res
	}
	content := r.Content
	if len(content) == 0 {
		content = []Content{Text("(no output)")}
	}
	l.appendMessage(Message{Role: RoleUser, Content: content, Details: d, Timestamp: l.cfg.Now(), QueueItemID: m.QueueItemID})
}

type userShellKey struct{}

// UserShell reports whether a tool's ctx is that of a shell command the
// user ran, not of a model's call: no assistant message holds the call, and
// the input it came from was saved (as a pending input) before it ran.
func UserShell(ctx context.Context) bool {
	v, _ := ctx.Value(userShellKey{}).(bool)
	return v
}

// shellCallID names the tool call of a shell command.
func shellCallID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "call_shell_" + hex.EncodeToString(b[:])
}

// ForModel is msgs as the model is sent them: a shell command the user ran
// becomes user text saying what ran and what it printed, and a private one
// (`!!`) is left out. msgs is not modified.
func ForModel(msgs []Message) []Message {
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		d, ok := ShellDetailsOf(m.Details)
		switch {
		case !ok || m.Role != RoleUser:
			out = append(out, m)
		case !d.Private:
			out = append(out, Message{Role: RoleUser, Timestamp: m.Timestamp, QueueItemID: m.QueueItemID,
				Content: []Content{Text(shellText(d, m.TextContent()))}})
		}
	}
	return out
}

// shellText tells the model about a command the user ran themselves.
func shellText(d ShellDetails, output string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "I ran this command in the workspace myself:\n\n    %s\n\n", d.Command)
	switch {
	case d.Result == nil:
		b.WriteString("It did not run.")
	case d.Result.Aborted, d.Result.TimedOut:
		b.WriteString("It was stopped.")
	default:
		fmt.Fprintf(&b, "It exited with status %d.", d.Result.ExitCode)
	}
	fmt.Fprintf(&b, " Its output:\n\n```\n%s\n```", strings.TrimRight(output, "\n"))
	return b.String()
}
