// Package scripted is steer's offline LLM provider: it needs no key and no
// network, streams realistic answers and tool calls, and plays scenarios of
// scripted responses and failures so that rotation, fallback, compaction and
// quarantine can be rehearsed and tested without a real provider.
//
//	p := scripted.New(scripted.DefaultOptions())
//	var stream agent.StreamFn = p.Stream
//
// # Models
//
// Models lists scripted/echo (the default, a 200k-token window) and
// scripted/tiny (an 8k-token window, to rehearse context overflow). Any other
// model whose API is "scripted" works too: the provider answers the same way.
//
// # Default behaviour
//
// Without a scenario (or when a scenario hands a request back), the provider
// reads the request's messages. The trailing run of user messages after the
// last assistant or tool-result message decides:
//
//   - After a tool result, every trailing user message is steering, and the
//     answer reports the tool results: a command's exit code and the last
//     lines of its output, a file's line count and first lines, a
//     directory's entries, an error quoted.
//   - Otherwise the first trailing user message is the prompt and the others
//     are steering typed while the run was queued. A user message after an
//     assistant answer is a new prompt, not steering, unless its opening
//     line says it is "runtime data and evidence, not user instructions"
//     (SPEC §7: how sub-agents' results reach their parent's run): then the
//     trailing messages are all steering, and the answer after their
//     acknowledgement is one short line.
//   - An answer given after steering starts with one line
//     "Steering received: <text>" per steering message, in order, then a
//     blank line. Runtime data is quoted from its items, past its opening
//     paragraph.
//   - The prompts `list files`, `read <path>`, `run <command>` and
//     `search <pattern>` (case-insensitive) call the tools ls, read, bash
//     and grep, after a one-line text; when the request does not offer the
//     tool, the answer says so instead.
//   - `call <tool> {json arguments}` calls any tool with those arguments
//     (none when the JSON is left out), so that every tool can be
//     rehearsed and tested offline: `call write {"path": "a.txt",
//     "content": "hi"}`. Arguments that are not one JSON object get an
//     answer saying so, and no call.
//   - A prompt whose every non-blank line is `delegate <task>` calls the
//     tool task with exactly {"task": "<task>"} per line, all in one
//     response, so that several lines start several sub-agents in parallel.
//     After the task results the answer reports each in a line
//     ("Delegated `<task>`: <result>"); the sub-agents' answers arrive later
//     as runtime data, acknowledged as steering.
//   - Any other prompt gets a Markdown answer beginning "You said: <text>",
//     with headings, a list and a code block.
//
// A reasoning model asked to think (StreamOptions.Thinking other than off)
// first streams a short thinking block. Usage is estimated at four
// characters a token; everything costs nothing.
//
// # Pacing and cancellation
//
// Text and thinking stream in chunks of Options.ChunkSize runes and tool
// arguments in a few pieces, Options.Pace chunks a second (0: as fast as
// possible). The wait between chunks selects on the request's context, so
// cancelling ends the response at once with stopReason aborted.
//
// # Idle watchdog
//
// Like the HTTP providers, every response runs under an idle watchdog
// (llmhttp.Watchdog): each piece streamed is progress and re-arms it, and a
// response without progress for Options.IdleTimeout (DefaultIdleTimeout,
// 5 s, when 0; a step's "idleTimeoutMs" overrides it) fails with stopReason
// error and the timeout error a stalled server gets, "no data from scripted
// for 5s (idle timeout)". The wait between paced chunks counts as silence,
// and so do keep-alives: a hang with "keepAliveMs" sends them while it
// stalls, and the error counts them ("no progress from scripted for 5s (idle
// timeout; 4 keep-alives did not count)").
//
// # Scenarios
//
// A scenario is a JSON object (see assets/scenarios/README.md for examples):
//
//	{
//	  "description": "what it rehearses",
//	  "then": "default" | "repeat",
//	  "steps": [ step, ... ]
//	}
//
// Each request takes the first step that is not used up and whose "when"
// matches it; a step is used up by the request that takes it unless it says
// "always": true. So without conditions, request N plays step N. When no step
// is left, "then": "default" (the default) answers with the default
// behaviour, and "repeat" plays the last step of the list again. Several
// requests may run at once; they take steps in the order they ask.
//
// A step streams its "thinking" (with "signature"), then its "text", then its
// "toolCalls" ([{"name", "arguments", "id"?}]), and stops with toolUse when it
// made calls, else stop. "default": true answers with the default behaviour
// instead (after the step's thinking, if any). "pace" overrides the provider's
// pace, "idleTimeoutMs" the idle watchdog's window and "usage" ({"input",
// "output", "cacheRead", "cacheWrite"}) the estimated usage. A "fault" ends the step with a failure, detailed by
// "error" ({"status", "type", "code", "message", "body", "headers"}, all
// optional except status for http; "headers" are response headers such as
// Retry-After that the error carries):
//
//	http       fails before any content with an HTTP status (429, 401, 402, 400, 529 …)
//	stream     streams the content, then an error inside the stream (overloaded)
//	hang       streams the content, then no progress until the request is
//	           cancelled or the idle watchdog fails it with a timeout error;
//	           "keepAliveMs" sends keep-alives meanwhile, which do not count
//	malformed  streams the content, then a chunk that cannot be parsed ("body")
//	empty      ends without any content
//	length     streams the text and half of the first tool call, then stops
//	           with stopReason length
//
// "when" holds when every condition it sets holds: "profile" (a path.Match
// pattern on the auth profile id of StreamOptions.Profile), "model" (a pattern
// on the model id or provider/id) and "minContextTokens" (the request's
// estimated input tokens, system prompt, messages and tools at four
// characters a token, reach it).
//
// LoadScenario reads a scenario by name from the embedded assets or from a
// file; decoding is strict, and errors name the file and the line.
package scripted
