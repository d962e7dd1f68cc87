// Package rpc speaks pi's RPC protocol and JSON event shapes, for `steer rpc`
// and `steer run --json`, so that clients written for pi (the npm package
// @mariozechner/pi-coding-agent: its RpcClient, editor integrations) drive
// steer unchanged. steer adds fields and commands of its own but never changes
// the meaning of one of pi's.
//
// # Framing
//
// One JSON object per line, ended by LF; a CR before the LF is stripped on
// input. Lines are never split on U+2028 or U+2029, which are legal inside JSON
// strings; on output they are always escaped, so that no reader splits on them
// either. Writer writes whole lines under one lock, so events and responses
// never interleave.
//
// # Messages
//
// Timestamps are Unix milliseconds.
//
//	user        {"role":"user","content":"text" | [text|image blocks],"timestamp"}
//	assistant   {"role":"assistant","content":[text|thinking|toolCall blocks],"api","provider",
//	             "model","usage":{"input","output","cacheRead","cacheWrite","totalTokens",
//	             "cost":{"input","output","cacheRead","cacheWrite","total"}},"stopReason",
//	             "errorMessage"?,"timestamp"}
//	toolResult  {"role":"toolResult","toolCallId","toolName","content":[blocks],"isError",
//	             "details"?,"timestamp"}
//
//	text {"type":"text","text"}   thinking {"type":"thinking","thinking","thinkingSignature"?,"redacted"?}
//	toolCall {"type":"toolCall","id","name","arguments":{…}}   image {"type":"image","data","mimeType"}
//
// A user message whose content is one text block is written as a string. steer
// adds "providerError" {kind,status,type,code,message,body} to a failed
// assistant message, "details" to an assistant message the loop failed on, and
// "queueItemId" to a user message injected from a pending queue.
// Messages encode through agent.Message's own MarshalJSON (pi's shape).
//
// # Events
//
// Events go out as package eventjson writes them (pi's shapes plus steer's
// "sessionId"); its doc lists them. Runtime notices go out as {"type": kind,
// "sessionId", "message"}, except cooldown_cleared {profile, model?, source}
// (a clear_cooldown, or a window found over), which carries its fields like
// the runner's cooldown event, and quarantine_cleared {engine} likewise.
//
// # Commands
//
// Server reads commands {"type", "id"?, …} and answers each with exactly one
// {"type":"response", "id"? (echoed as sent), "command", "success", "error"?,
// "data"?}. A line that is not a JSON object is answered with command "parse";
// an empty line is ignored. A line over the size limit is skipped unread
// (only its first and last 4 KiB are looked at) and answered with command
// "parse" and its "id" when those ends show one.
//
//	prompt {message, images?, streamingBehavior?}   start a run; while one is
//	        active, streamingBehavior "steer", "followUp", "collect" or
//	        "interrupt" queues the input and its absence is an error
//	steer / follow_up {message, images?}            queue (or start a run when idle);
//	        data {itemId?, queued}
//	collect / interrupt {message, images?}          steer's: the seed's other queue modes —
//	        collected inputs come as one turn when the run would stop; an
//	        interrupt aborts the run and starts the next with itself
//	        (in each, what the message @-mentions — files, directories, MCP
//	        resources — is attached, as in the TUI)
//	abort                                           answered once the run has ended
//	new_session                                     data {cancelled:false}; fails during a run
//	get_state                                       pi's state plus steer's "queue" items
//	get_messages · get_available_models · get_last_assistant_text
//	set_model {provider, modelId} · set_thinking_level {level}
//	set_steering_mode {mode} · set_follow_up_mode {mode}
//	dequeue {itemId?}                               steer's: take queued items back
//	        (all without itemId); data {items, texts}
//	approve {toolCallId, decision}                  steer's: answer a tool_approval_request
//	        (allow, always or deny)
//	set_approval_mode {mode}                        steer's: ask, auto, never or plan, for
//	        the session's next calls; an approval_mode event {sessionId, mode,
//	        planFile?} follows (plan mode: only read-only tools run, the model
//	        writes its plan to planFile, and a plan event {path, text} comes
//	        when it has)
//	plan_approve {mode}                             steer's: approve the plan: read planFile
//	        again, switch to mode (ask or auto) and send the plan as a
//	        follow-up; data {itemId?, queued}; fails while no plan is written
//	inspect {what}                                  steer's: profiles, engines, lanes or runs,
//	        as `steer inspect WHAT --json`
//	compact {customInstructions?}                   compact now, whatever the size; abort
//	        or quit cancels it ("compaction cancelled"), the commands
//	        after it are answered once it has
//	clear_quarantine {engine}                       steer's: lift an engine's quarantine;
//	        data {cleared:true}, after a quarantine_cleared event {engine};
//	        fails for an engine that is not quarantined
//	clear_cooldown {profile}                        steer's: end an auth profile's cooldown and
//	        disabled windows (as `steer inspect profiles --clear ID`); data
//	        {cleared:true}, after a cooldown_cleared event {source:"user"} when
//	        a window was open; fails for a profile that is not configured
//	rewind {to, code?, conversation?, dryRun?, skipChanged?}
//	                                                steer's: go back to before turn "to" (its
//	        index or its user message's id): the code, the conversation or both
//	        (neither flag); data {preview: {session, turn, scope, files: [{path,
//	        change, added, removed, changedOutside?}], changedOutside, leftOut:
//	        [{path, why}], laterTurns}, result: {restored, skipped, conversation,
//	        entry} (null with dryRun)}; as `steer rewind --json`. {redo:true}
//	        undoes the last rewind, {resume:"finish"|"rollback"} completes an
//	        interrupted one; each fails during a run
//	quit                                            steer's: abort, wait, answer, stop serving
//
// # End of input
//
// When stdin ends, no approve can come any more: the approvals waiting, and
// any the run asks for afterwards, are refused (the tool is not run; its
// result says that no one can answer). Serve then waits for the run to end,
// so that a piped prompt prints its whole run, and returns.
//
// Images come as pi's {"type":"image","data","mimeType"} or as
// {"type":"image","source":{"type":"base64","mediaType","data"}}. Commands of
// pi's protocol and of steer's that are not implemented yet fail with
// "<command> is not supported yet"; any other type with "unknown command".
package rpc
