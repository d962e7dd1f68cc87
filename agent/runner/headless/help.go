package headless

// Help is the help text of a command of steer's command line ("" is steer's
// own, which lists every command and flag); ok is false for a command that
// has none, and then text is steer's own.
func Help(command string) (text string, ok bool) {
	switch command {
	case "":
		return usage(), true
	case "run":
		return runUsage, true
	case "rpc":
		return rpcUsage, true
	case "sessions":
		return sessionsUsage, true
	case "inspect":
		return inspectHelp(), true
	case "mcp":
		return mcpUsage, true
	case "config":
		return configUsage, true
	case "trust":
		return trustUsage, true
	case "rewind":
		return rewindHelp, true
	}
	return usage(), false
}

// usage is steer's own help, which lists every command.
func usage() string { return usageHead + inspectCommands() + usageTail }

// usageHead and usageTail are steer's help around the inspectors' lines
// (inspectCommands).
const usageHead = `steer — chat with an LLM agent that uses tools, and steer it while it works.

Usage:
  steer [flags]                       the terminal UI
  steer run [--json] [flags] PROMPT   answer one prompt headless (PROMPT "-" or absent: read stdin)
  steer rpc [flags]                   pi's RPC protocol: JSON commands on stdin, events on stdout
  steer sessions [--json]             list saved sessions, newest first
  steer sessions show ID [--json]     print a session's whole history (--context: what the model sees)
  steer sessions export ID            the session as a page (--format html, md or jsonl), secrets redacted
  steer sessions import FILE          a JSONL export as a new session (--workspace DIR, --json; FILE - is stdin)
  steer sessions search QUERY         the sessions whose messages, titles or names hold every word of QUERY
  steer sessions rename ID NAME       name a session (as /name does)
  steer mcp list [--json]             start each MCP server and report its state, tools, prompts, resources
  steer mcp tools NAME [--json]       an MCP server's tools, with their schemas and read-only hints
  steer mcp login NAME                sign in to an MCP server that needs OAuth (opens the browser)
  steer config [--json]               the merged configuration, each value with the file it came from
  steer trust [PATH] [--revoke]       trust what a workspace brings (project config, .mcp.json)
  steer rewind --session ID --to TURN go back to before a turn: code, conversation or both (see 'steer help rewind')
`

const usageTail = `  steer version                       the version and the revision it was built from
  steer help [COMMAND]                this text, or a command's

Flags (before or after the command):
  --model REF        provider/model or model id (default: the configured model)
  --scenario NAME    scripted-provider scenario: a name from assets/scenarios or a JSON file
  --pace N           scripted-provider chunks per second (default 60; 0 = as fast as possible)
  --config FILE      a configuration file laid over the global and project ones (see 'steer help config')
  --state-dir DIR    state directory (default: $STEER_STATE_DIR, else $XDG_STATE_HOME/steer)
  --session ID       resume a saved session (see 'steer sessions')
  --continue         resume the latest session of this directory
  --profile ID       the auth profile the session tries first while it is usable (/profiles → p
                     changes it, l locks the session to one); an unknown ID is a usage error
  --theme T          terminal UI: dark, light, auto or a theme file in ~/.config/steer/themes
                     (default: the config's ui.theme, else auto)
  --plain            terminal UI: plain lines for screen readers and logs, no redraws (also ui.plain)
  --approve MODE     tool approval: ask (writes, commands and paths outside the workspace ask
                     first), auto (all runs inside the workspace; outside is refused) or never
                     (writes, commands and outside paths refused); default: the config's
                     tools.approval, else ask in the terminal UI and auto in run and rpc;
                     plan is plan mode (see --plan)
  --plan             plan mode: only read-only tools run and the model writes its plan to a plan
                     file under the state directory (plans/SESSION.md); approving it (/plan in the
                     terminal UI, plan_approve in rpc) switches to ask or auto and sends it
  --trust-project    trust this workspace for this run: its project config and .mcp.json apply
                     (see 'steer help trust')
  --json             run: print the event stream as JSON lines; sessions: print JSON
  --timeout D        run: give up after D (e.g. 90s, 10m; default agent.timeoutSeconds, 48h); exit 3
  --max-cost USD     stop a run before the request that would take it past USD dollars at the
                     model's prices (default: the config's budget.run; budget.session caps a session)
  --version          print the version

Real providers come from the config file or ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY;
with none, steer runs offline on the scripted provider.
Exit status: 0 completed, 1 failed, 2 usage or configuration error, 3 timed out,
130 interrupted (SIGINT), 129 and 143 for SIGHUP and SIGTERM.
`

const runUsage = `Usage: steer run [flags] PROMPT
       steer run [flags] [-] < FILE

Answers one prompt without a screen. The answer streams to stdout; on stderr go
each tool call with its output as it arrives (up to 16 KiB per call), failed
saves, and why a run stopped. PROMPT is the arguments joined by spaces; "-" or
no PROMPT reads it from stdin (at most agent.maxInputBytes, 4 MiB by default).

Flags:
  --json             print the event stream as JSON lines instead of the answer
  --timeout D        abort the run after D (e.g. 90s, 10m): exit status 3
  --max-cost USD     stop before the request that would take the run past USD dollars: exit 1,
                     the reason on stderr (with --json, a budget event)
  --approve MODE     auto (the default), never, or ask, which refuses what would ask: nobody
                     can answer here
  --plan             plan only: nothing but read-only tools runs, the model writes its plan to
                     the session's plan file, whose path is printed on stderr at the end
                     ("plan: PATH"; with --json, a plan event and a plan_file event)
  --model, --scenario, --pace, --config, --state-dir, --session, --continue,
  --profile:         as for steer (see 'steer help')

A failure that cools an auth profile down prints its own line on stderr,
"cooldown: PROFILE[/MODEL] REASON until HH:MM:SS" (with --json, a cooldown
event); a window cleared or found over prints "cooldown cleared: PROFILE
(user|expired)" (a cooldown_cleared event).

Exit status: 0 completed, 1 failed (the model's error, a failed save), 2 usage or
configuration error, 3 timed out, 130 interrupted (SIGINT), 129 SIGHUP, 143 SIGTERM.
`

const rpcUsage = `Usage: steer rpc [flags]

Speaks pi's RPC protocol: one JSON command per line on stdin, one response per
command and the session's events as JSON lines on stdout. This is how editors,
scripts and tests drive steer; see SPEC §12 or pi's docs/rpc.md for the commands.
It ends at the end of stdin (after the active run), on {"type":"quit"}, or on a
signal, which aborts the active run first.

Tool approval (--approve, tools.approval) is auto unless set: with ask, a call
that needs approval sends a tool_approval_request event {toolCallId, toolName,
args, summary, diff?, paths, outside} and waits for the approve command
{"type":"approve","toolCallId":…,"decision":"allow"|"always"|"deny"}; a
tool_approval_resolved event follows. The run timeout does not count the wait.

Flags: --model, --scenario, --pace, --config, --state-dir, --session, --continue,
--approve, --profile, as for steer (see 'steer help').

Exit status: 0 done, 1 the output or input failed, 2 usage or configuration
error, 130 SIGINT, 129 SIGHUP, 143 SIGTERM.
`

const sessionsUsage = `Usage: steer sessions [--json]
       steer sessions show ID [--context] [--json]
       steer sessions export ID [--format html|md|jsonl]
       steer sessions import FILE [--workspace DIR] [--json]
       steer sessions search QUERY [--json]
       steer sessions rename ID NAME

Lists the saved sessions of every workspace, newest first, or prints one
session's whole history: every message ever written, compactions marked where
they happened (nothing is deleted). With --json: pi's message objects, each
with its "id" and "parentId"; a compaction is an object with a "type" and no
"role". search lists the sessions whose messages (tool output included) or
titles or names hold every word of QUERY, each word a prefix, best match first,
with the matching text. rename names a session (an empty NAME, "", removes the
name); the list shows the name instead of the title. Works while another steer uses the state directory.

Flags:
  --format F         export: html (default; one self-contained page that loads
                     nothing), md (for pasting) or jsonl (every entry). Secrets
                     are redacted: the environment's keys and token shapes
                     (sk-…, ghp_…, AWS keys, bearer tokens); stderr says how many
  --context          print what the model sees instead: the latest compaction's
                     summary, what it kept and everything after
  --json             print JSON
  --state-dir DIR    state directory (default: $STEER_STATE_DIR, else $XDG_STATE_HOME/steer)

Exit status: 0, 1 the database could not be read, 2 no such session or an
unusable state directory.
`
