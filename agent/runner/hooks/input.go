package hooks

// Input is what a hook reads on stdin, with Claude Code's field names:
// the fields every event has, then those of its event (the others are
// left out).
type Input struct {
	SessionID string `json:"session_id"`
	// TranscriptPath is left out: steer keeps transcripts in its database,
	// not in a file a hook could read (`steer sessions show ID --json`
	// prints one).
	TranscriptPath string `json:"transcript_path,omitempty"`
	Cwd            string `json:"cwd"`
	// PermissionMode is the approval policy: ask, auto or never.
	PermissionMode string `json:"permission_mode,omitempty"`
	HookEventName  Event  `json:"hook_event_name"`

	// PreToolUse and PostToolUse.
	ToolName  string         `json:"tool_name,omitempty"`
	ToolInput map[string]any `json:"tool_input,omitempty"`
	ToolUseID string         `json:"tool_use_id,omitempty"`
	// ToolResponse is the tool's result (PostToolUse).
	ToolResponse any `json:"tool_response,omitempty"`

	// Prompt is the user's text (UserPromptSubmit).
	Prompt string `json:"prompt,omitempty"`
	// StopHookActive is set when the agent goes on because a Stop hook
	// blocked the last stop (Stop, SubagentStop); always sent for them.
	StopHookActive *bool `json:"stop_hook_active,omitempty"`
	// Source is how the session started: startup, resume (SessionStart).
	Source string `json:"source,omitempty"`
	// Reason is why the session ended: prompt_input_exit, other (SessionEnd).
	Reason string `json:"reason,omitempty"`
	// Trigger is manual or auto and CustomInstructions the user's (PreCompact).
	Trigger            string  `json:"trigger,omitempty"`
	CustomInstructions *string `json:"custom_instructions,omitempty"`
	// Message is what needs the user, NotificationType which kind of thing
	// it is: permission_prompt, elicitation_dialog (Notification).
	Message          string `json:"message,omitempty"`
	NotificationType string `json:"notification_type,omitempty"`
}

// matched is what the event's matcher is matched against (matchesOn).
func (in Input) matched() string {
	switch in.HookEventName.matchesOn() {
	case "tool_name":
		return in.ToolName
	case "source":
		return in.Source
	case "trigger":
		return in.Trigger
	case "notification_type":
		return in.NotificationType
	}
	return ""
}
