// Package hooks runs the user's hooks in Claude Code's shape: shell
// commands that steer starts at fixed points of a session (before and
// after a tool call, when a prompt is submitted, when the agent stops, …),
// that read the event as JSON on stdin and answer with their exit status
// and, optionally, JSON on stdout. It imports nothing of steer's: the
// runner builds an Engine from the configuration and calls Run at each
// point; what a verdict does there is the runner's business.
//
// # The protocol
//
// A hook is run with `sh -c COMMAND` in the workspace, with the
// environment of steer plus CLAUDE_PROJECT_DIR and STEER_PROJECT_DIR (the
// workspace). Its stdin is an Input. Then, per hook (Interpret):
//
//	exit status   stdout / stderr                       verdict
//	0             empty or plain text                   none (the text is context for
//	                                                    UserPromptSubmit and SessionStart)
//	0             JSON object (Output)                  what its fields say
//	2             stderr is the reason                  block (deny for PreToolUse), where
//	                                                    the event can block; else reported
//	other         -                                     reported, otherwise ignored
//	timed out     -                                     killed (its process group), reported
//
// The hooks of one event run in parallel and their verdicts are combined
// (Combine): deny > ask > allow > none, reasons and context joined in
// configuration order.
//
// # Tool names
//
// Events carry steer's tool names (bash, read, …); a matcher also accepts
// Claude Code's name of the same tool (ClaudeNames), so that a hooks file
// written for Claude Code matches unchanged. MCP tools are named
// mcp__<server>__<tool> in both.
package hooks
