package runner

import (
	"cmp"
	"context"
	"strings"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner/hooks"
	"github.com/steer-tui/steer/agent/tools"
)

// NoticeHook: a hook did something worth saying — it blocked, denied or
// asked, or it failed, timed out and was killed. Text is the outcome line
// ("hook PreToolUse[0] timed out after 2s: killed"), Data a HookOutcome.
const NoticeHook NoticeKind = "hook"

// HookOutcome is the Data of a hook notice (hook {hook, event, outcome,
// problem}).
type HookOutcome struct {
	// Hook names it as reports do: "PreToolUse[0]".
	Hook  string `json:"hook"`
	Event string `json:"event"`
	// Outcome says what happened: "deny: no rm", "timed out after 2s:
	// killed".
	Outcome string `json:"outcome"`
	// Problem is set when the hook failed rather than decided.
	Problem bool   `json:"problem"`
	Command string `json:"command"`
}

// hookCalls runs the user's hooks at the runtime's events. It is the
// approval gate's CallHooks, for PreToolUse and PostToolUse. It calls only
// the engine and notify.
type hookCalls struct {
	engine *hooks.Engine
	// mode is the session's approval mode now, which hooks read as
	// permission_mode ("plan" in plan mode, as Claude Code says it).
	mode      func() tools.Mode
	sessionID func() string
}

func newHookCalls(hs []hooks.Hook, workspace string, mode func() tools.Mode, now func() time.Time,
	sessionID func() string, notify func(NoticeKind, string, any)) *hookCalls {
	report := func(o hooks.Outcome) {
		notify(NoticeHook, o.Line(), HookOutcome{Hook: o.Hook.Name(), Event: string(o.Hook.Event),
			Outcome: o.Text, Problem: o.Problem, Command: o.Hook.Command})
	}
	return &hookCalls{engine: hooks.NewEngine(hs, hooks.Options{Dir: workspace, Now: now, Report: report}),
		mode: mode, sessionID: sessionID}
}

// input is the part of every event's input the runtime knows.
func (h *hookCalls) input(ev hooks.Event) hooks.Input {
	return hooks.Input{SessionID: h.sessionID(), PermissionMode: string(h.mode()), HookEventName: ev}
}

// Before runs the PreToolUse hooks; their combined decision is the gate's
// vote.
func (h *hookCalls) Before(ctx context.Context, callID, tool string, args map[string]any) tools.HookVerdict {
	in := h.input(hooks.PreToolUse)
	in.ToolName, in.ToolInput, in.ToolUseID = tool, args, callID
	if !h.engine.Has(in) {
		return tools.HookVerdict{}
	}
	r := h.engine.Run(ctx, in)
	v := tools.HookVerdict{Reason: r.Reason, Args: r.UpdatedInput}
	switch r.Decision {
	case hooks.Deny:
		v.Vote = tools.HookDeny
	case hooks.Ask:
		v.Vote = tools.HookAsk
	case hooks.Allow:
		v.Vote = tools.HookAllow
	}
	return v
}

// After runs the PostToolUse hooks with the result as tool_response; what
// they say back (a block's reason, additional context) is added to the
// result, for the model to read.
func (h *hookCalls) After(ctx context.Context, callID, tool string, args map[string]any, res agent.ToolResult) agent.ToolResult {
	in := h.input(hooks.PostToolUse)
	in.ToolName, in.ToolInput, in.ToolUseID = tool, args, callID
	if !h.engine.Has(in) {
		return res
	}
	in.ToolResponse = toolResponse(res)
	r := h.engine.Run(ctx, in)
	var notes []string
	if r.Decision == hooks.Deny {
		notes = append(notes, "PostToolUse hook: "+r.Reason)
	}
	if r.Context != "" {
		notes = append(notes, r.Context)
	}
	if len(notes) == 0 {
		return res
	}
	// The tool may keep its slice.
	res.Content = append(append([]agent.Content(nil), res.Content...), agent.Text(strings.Join(notes, "\n")))
	return res
}

// toolResponse is a result as PostToolUse hooks read it: its text, whether
// it is an error, and the tool's details (a command's exit status, …).
func toolResponse(res agent.ToolResult) map[string]any {
	var text []string
	for _, c := range res.Content {
		if c.Type == agent.ContentText {
			text = append(text, c.Text)
		}
	}
	out := map[string]any{"content": strings.Join(text, "\n"), "is_error": res.IsError}
	if res.Details != nil {
		out["details"] = res.Details
	}
	return out
}

// HookBlockedError refuses an input a UserPromptSubmit hook blocked;
// nothing of it was kept.
type HookBlockedError struct{ Reason string }

func (e *HookBlockedError) Error() string {
	return "blocked by a UserPromptSubmit hook: " + e.Reason
}

// takeInput is the message an input sends: expanded when it invokes a skill
// or a template (library.expand), then past the UserPromptSubmit hooks,
// which may block it or add context for the model.
func (r *Runtime) takeInput(ctx context.Context, kind agent.QueueKind, typed string) (string, error) {
	text, err := r.library.expand(kind, typed)
	// A sub-agent's task is the model's words, not the user's.
	if err != nil || kind == agent.QueueShell || kind == agent.QueueShellPrivate || r.opts.SubAgent {
		return text, err
	}
	return r.hooks.submit(ctx, typed, text)
}

// submit runs the UserPromptSubmit hooks for the prompt typed, whose message
// is text. Their context goes with the message, marked as theirs, so that
// the model tells it from what the user wrote.
func (h *hookCalls) submit(ctx context.Context, typed, text string) (string, error) {
	in := h.input(hooks.UserPromptSubmit)
	in.Prompt = typed
	if !h.engine.Has(in) {
		return text, nil
	}
	r := h.engine.Run(ctx, in)
	switch {
	case r.Decision == hooks.Deny:
		return "", &HookBlockedError{Reason: r.Reason}
	case r.Stop:
		return "", &HookBlockedError{Reason: cmp.Or(r.StopReason, "it said not to continue")}
	case r.Context == "":
		return text, nil
	}
	return text + "\n\n<user-prompt-submit-hook>\n" + r.Context + "\n</user-prompt-submit-hook>", nil
}
