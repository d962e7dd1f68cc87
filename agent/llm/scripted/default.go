package scripted

import (
	"strings"

	"github.com/steer-tui/steer/agent"
)

// turn is what the default behaviour reads from a request's messages.
type turn struct {
	// prompt is the new user prompt; hasPrompt is false when the request
	// continues after tool results.
	prompt    string
	hasPrompt bool
	// steering holds the texts of the steering messages injected since the
	// previous assistant answer, in order.
	steering []string
	// results are the tool results since the last assistant message, when
	// the request answers from them.
	results []outcome
}

// outcome is one tool result with the call that asked for it.
type outcome struct {
	name    string
	args    map[string]any
	text    string
	isError bool
	details any
}

// readTurn classifies the trailing run of user messages: after a tool result
// all of them are steering; otherwise the first is the prompt and the rest
// were typed as steering while the run was queued. A user message right
// after an assistant answer, or after a call the user denied (which ended
// the run), is a new prompt (a follow-up), not steering.
func readTurn(msgs []agent.Message) turn {
	last := len(msgs) - 1
	for last >= 0 && msgs[last].Role == agent.RoleUser {
		last--
	}
	var texts []string
	for _, m := range msgs[last+1:] {
		texts = append(texts, m.TextContent())
	}
	var t turn
	if last >= 0 && msgs[last].Role == agent.RoleToolResult && !deniedByUser(msgs[:last+1]) {
		t.steering = texts
		t.results = outcomes(msgs[:last+1])
		return t
	}
	if len(texts) > 0 && isRuntimeData(texts[0]) {
		t.steering = texts
		return t
	}
	if len(texts) > 0 {
		t.prompt, t.hasPrompt, t.steering = texts[0], true, texts[1:]
	}
	return t
}

// refusedByUser is the details' "refused" of a call the person denied: the
// runner ends the run on it, so what the user types next is a new prompt,
// not steering of the finished turn.
const refusedByUser = "user"

// deniedByUser reports whether the run of tool results that ends msgs holds
// a call the person denied.
func deniedByUser(msgs []agent.Message) bool {
	for i := len(msgs) - 1; i >= 0 && msgs[i].Role == agent.RoleToolResult; i-- {
		if detailsJSON(msgs[i].Details)["refused"] == refusedByUser {
			return true
		}
	}
	return false
}

// outcomes returns the run of tool results that ends msgs, joined with the
// calls of the assistant message before them.
func outcomes(msgs []agent.Message) []outcome {
	first := len(msgs)
	for first > 0 && msgs[first-1].Role == agent.RoleToolResult {
		first--
	}
	calls := map[string]agent.Content{}
	if first > 0 && msgs[first-1].Role == agent.RoleAssistant {
		for _, c := range msgs[first-1].ToolCalls() {
			calls[c.ID] = c
		}
	}
	var out []outcome
	for _, m := range msgs[first:] {
		o := outcome{name: m.ToolName, text: m.TextContent(), isError: m.IsError, details: m.Details}
		if c, ok := calls[m.ToolCallID]; ok {
			o.args = c.Arguments
			if o.name == "" {
				o.name = c.Name
			}
		}
		out = append(out, o)
	}
	return out
}

// command is a prompt the default behaviour answers with tool calls.
type command struct {
	tool string
	// args are the arguments of each call of tool, all made in one
	// response: one call, or several parallel ones for delegate.
	args    []map[string]any
	intro   string // said before the call
	problem string // why the command cannot be run as written, said instead
}

// parseCommand recognises `list files`, `read <path>`, `run <command>`,
// `search <pattern>`, `call <tool> {json}` and `delegate <task>` lines,
// case-insensitively.
func parseCommand(prompt string) (command, bool) {
	if cmd, ok := parseCall(prompt); ok {
		return cmd, true
	}
	if cmd, ok := parseDelegate(prompt); ok {
		return cmd, true
	}
	p := strings.TrimSpace(prompt)
	lower := strings.ToLower(p)
	if lower == "list files" || lower == "ls" {
		return command{tool: "ls", args: []map[string]any{{}}, intro: "Listing the files in the workspace."}, true
	}
	for _, c := range []struct{ verb, tool, arg, intro string }{
		{"read ", "read", "path", "Reading `%s`."},
		{"run ", "bash", "command", "Running `%s`."},
		{"search ", "grep", "pattern", "Searching the workspace for `%s`."},
	} {
		if !strings.HasPrefix(lower, c.verb) {
			continue
		}
		rest := strings.TrimSpace(p[len(c.verb):])
		if rest == "" {
			return command{}, false
		}
		return command{
			tool:  c.tool,
			args:  []map[string]any{{c.arg: rest}},
			intro: strings.Replace(c.intro, "%s", oneLine(rest, 80), 1),
		}, true
	}
	return command{}, false
}

// defaultReply decides the answer without a scenario.
func (p *Provider) defaultReply(model agent.Model, llm agent.LLMContext, opts agent.StreamOptions) reply {
	t := readTurn(llm.Messages)
	var r reply
	var body string
	switch cmd, isCmd := parseCommand(t.prompt); {
	case t.hasPrompt && isCmd && cmd.problem != "":
		body = cmd.problem
	case t.hasPrompt && isCmd && hasTool(llm.Tools, cmd.tool):
		body = cmd.intro
		for _, args := range cmd.args {
			r.calls = append(r.calls, agent.ToolCall(p.newCallID(), cmd.tool, args))
		}
		r.thinking = "The user asked for something the `" + cmd.tool + "` tool can do, so I will call it."
	case t.hasPrompt && isCmd:
		body = unavailableAnswer(cmd, llm.Tools)
		r.thinking = "That needs the `" + cmd.tool + "` tool, which this session does not have."
	case t.hasPrompt:
		body = generalAnswer(t.prompt, llm.Tools)
		r.thinking = "No tool is needed for this; I will answer directly."
	case len(t.results) > 0:
		body = resultsAnswer(t.results)
		r.thinking = "The tool has finished; I will report what it returned."
	case len(t.steering) > 0:
		body = steeringOnlyAnswer
		r.thinking = "Background work reported to this run; I will acknowledge it."
	default:
		body = "There is nothing new to answer: the conversation ends with my last reply. " +
			"Type a message to go on."
	}
	r.text = steeringLead(t.steering) + body
	if !model.Reasoning || opts.Thinking == "" || opts.Thinking == agent.ThinkingOff {
		r.thinking = ""
	} else {
		r.signature = "scripted"
	}
	return r
}

func hasTool(tools []agent.ToolSpec, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}
