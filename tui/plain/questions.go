package plain

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/form"
)

// A question is what the next line answers: an approval, the workspace
// trust at start-up, a field of an MCP server's request for input. They
// are asked one at a time, in the order they came; a line typed while one
// waits answers it and goes nowhere else.
type question interface {
	// prompt is the line that asks.
	prompt() string
	// answer takes a typed line: what to write back ("" nothing) and
	// whether the question is over.
	answer(line string) (reply string, done bool)
}

// askLocked queues q, asking it at once when nothing else waits.
func (p *printer) askLocked(q question) {
	p.asks = append(p.asks, q)
	if len(p.asks) == 1 {
		p.sayLocked(q.prompt())
	}
}

// dropLocked removes q, asking the next one if q was being asked.
func (p *printer) dropLocked(q question) {
	for i, a := range p.asks {
		if a != q {
			continue
		}
		p.asks = append(p.asks[:i:i], p.asks[i+1:]...)
		if i == 0 && len(p.asks) > 0 {
			p.sayLocked(p.asks[0].prompt())
		}
		return
	}
}

// answerHead gives line to the question being asked; false when none is.
// The answer runs without the lock: answering an approval emits events,
// which the printer writes.
func (p *printer) answerHead(line string) bool {
	p.mu.Lock()
	if len(p.asks) == 0 {
		p.mu.Unlock()
		return false
	}
	q := p.asks[0]
	p.mu.Unlock()
	reply, done := q.answer(strings.TrimSpace(line))
	p.mu.Lock()
	defer p.mu.Unlock()
	if reply != "" {
		p.sayLocked(reply)
	}
	if done {
		p.dropLocked(q)
	}
	return true
}

// approvalQuestion asks for a tool call's approval; the approval's
// resolution (here or elsewhere) ends it.
type approvalQuestion struct {
	h   *runner.Host
	req runner.ApprovalRequest
}

// prompt is the call, a command's parts with the rules' verdicts, why it
// asks, and the answers: with a rule to grant, also saving it.
func (q *approvalQuestion) prompt() string {
	var b strings.Builder
	if len(q.req.Parts) > 1 || q.req.Reason != "" {
		for _, p := range q.req.Parts {
			fmt.Fprintf(&b, "  part %s: %s", p.Verdict, p.Text)
			if why := cmp.Or(p.Rule, p.Reason); why != "" {
				b.WriteString(" (" + why + ")")
			}
			b.WriteString("\n")
		}
		if q.req.Reason != "" {
			b.WriteString("  asks because: " + q.req.Reason + "\n")
		}
	}
	b.WriteString("approve " + strings.TrimSpace(q.req.ToolName+" "+firstLine(q.req.Summary)) + "? y (allow), ")
	if len(q.req.Grant) == 0 {
		b.WriteString("a (always), n (deny)")
		return b.String()
	}
	fmt.Fprintf(&b, "a (always: %s), p (save it to the project config), g (save it to the global config), n (deny)",
		strings.Join(q.req.Grant, ", "))
	return b.String()
}

func (q *approvalQuestion) answer(line string) (string, bool) {
	line = strings.ToLower(line)
	if scope, ok := saveScopes[line]; ok && len(q.req.Grant) > 0 {
		for _, r := range q.req.Grant {
			if err := q.h.SaveRule(scope, "allow", r); err != nil {
				return "error: " + err.Error(), false
			}
		}
		if err := q.h.ApproveIn(q.req.SessionID, q.req.ID, runner.ApproveOnce); err != nil {
			return "error: " + err.Error(), true
		}
		return "saved " + strings.Join(q.req.Grant, ", ") + " to the " + scope + " config", false
	}
	d, ok := decisions[line]
	if !ok {
		return "answer y (allow), a (always) or n (deny)", false
	}
	if err := q.h.ApproveIn(q.req.SessionID, q.req.ID, d); err != nil {
		return "error: " + err.Error(), true
	}
	return "", false // approval_resolved ends it
}

// saveScopes are the answers that save the grant to a config file.
var saveScopes = map[string]string{"p": runner.RuleScopeProject, "g": runner.RuleScopeGlobal}

// decisions are the answers to an approval question.
var decisions = map[string]runner.ApprovalDecision{
	"y": runner.ApproveOnce, "yes": runner.ApproveOnce,
	"a": runner.ApproveSession, "always": runner.ApproveSession,
	"n": runner.ApproveDeny, "no": runner.ApproveDeny,
}

// trustQuestion asks whether what the workspace brings may take effect.
type trustQuestion struct {
	h *runner.Host
	w runner.WorkspaceTrust
}

func (q *trustQuestion) prompt() string {
	text := q.w.Summary()
	if q.w.Changed {
		text = "Changed since you trusted it. " + text
	}
	return strings.TrimRight(text, "\n") + "\nTrust this workspace? a (allow), n (not now)"
}

func (q *trustQuestion) answer(line string) (string, bool) {
	switch strings.ToLower(line) {
	case "a", "allow", "y", "yes":
		if err := q.h.TrustWorkspace(); err != nil {
			return "error: " + err.Error(), true
		}
		reply := "trusted " + q.w.Path
		if q.w.Config != "" {
			reply += "; its project config applies when steer starts next"
		}
		return reply, true
	case "n", "no", "not now":
		return "not trusted: nothing it brings applies", true
	}
	return "answer a (allow) or n (not now)", false
}

// elicitQuestion walks the fields of a server's request for input, one
// line each; /decline and /cancel answer it without content.
type elicitQuestion struct {
	req     runner.MCPElicitation
	fields  []form.Field
	i       int
	content map[string]any
	reply   chan runner.MCPElicitAnswer // holds one
}

func (q *elicitQuestion) prompt() string {
	head := "MCP " + q.req.Server + " asks"
	if m := strings.TrimSpace(q.req.Message); m != "" {
		head += ": " + m
	}
	return head + " (/decline, /cancel)\n" + q.fieldPrompt()
}

// fieldPrompt asks for field i: its label, what it takes, its default.
func (q *elicitQuestion) fieldPrompt() string {
	f := q.fields[q.i]
	var notes []string
	if f.Help != "" {
		notes = append(notes, f.Help)
	}
	switch f.Kind {
	case form.Boolean:
		notes = append(notes, "y or n")
	case form.Choice:
		notes = append(notes, "one of "+f.OptionList())
	case form.MultiChoice:
		notes = append(notes, "any of "+f.OptionList()+", separated by commas")
	case form.Number:
		notes = append(notes, "a number")
	case form.Integer:
		notes = append(notes, "a whole number")
	}
	if f.Required {
		notes = append(notes, "required")
	}
	line := f.Label
	if len(notes) > 0 {
		line += " (" + strings.Join(notes, "; ") + ")"
	}
	if f.Default != nil {
		line += fmt.Sprintf(" [%v]", f.Default)
	}
	return line + "?"
}

func (q *elicitQuestion) answer(line string) (string, bool) {
	switch line {
	case "/decline":
		q.reply <- runner.MCPElicitAnswer{Action: runner.MCPElicitDecline}
		return "declined", true
	case "/cancel":
		q.reply <- runner.MCPElicitAnswer{Action: runner.MCPElicitCancel}
		return "cancelled", true
	}
	f := q.fields[q.i]
	v, problem := f.Answer(line)
	if line == "" && f.Default != nil {
		v, problem = f.Default, ""
	}
	if problem != "" {
		return problem + ": " + q.fieldPrompt(), false
	}
	if v != nil {
		q.content[f.Name] = v
	}
	if q.i++; q.i < len(q.fields) {
		return q.fieldPrompt(), false
	}
	q.reply <- runner.MCPElicitAnswer{Action: runner.MCPElicitAccept, Content: q.content}
	return "sent to " + q.req.Server, true
}

// elicit is the host's MCP elicitor: it asks the request's fields and
// waits for the answers, or for the server to withdraw it (ctx). A schema
// no line can ask for is declined, and the user told why.
func (p *printer) elicit(ctx context.Context, req runner.MCPElicitation) (runner.MCPElicitAnswer, error) {
	fields, err := form.FromSchema(req.Schema)
	if err != nil {
		p.say(fmt.Sprintf("%s asked for input steer cannot ask for (declined): %v", req.Server, err))
		return runner.MCPElicitAnswer{Action: runner.MCPElicitDecline}, nil
	}
	if len(fields) == 0 { // nothing to fill in: a yes or no
		fields = []form.Field{{Name: "", Label: "Accept", Kind: form.Boolean, Required: true}}
	}
	q := &elicitQuestion{req: req, fields: fields, content: map[string]any{}, reply: make(chan runner.MCPElicitAnswer, 1)}
	p.mu.Lock()
	p.askLocked(q)
	p.mu.Unlock()
	select {
	case a := <-q.reply:
		if a.Action == runner.MCPElicitAccept && fields[0].Name == "" {
			if ok, _ := a.Content[""].(bool); !ok {
				return runner.MCPElicitAnswer{Action: runner.MCPElicitDecline}, nil
			}
			a.Content = map[string]any{}
		}
		return a, nil
	case <-ctx.Done():
		p.mu.Lock()
		defer p.mu.Unlock()
		p.sayLocked("MCP " + req.Server + " withdrew its request for input")
		p.dropLocked(q)
		return runner.MCPElicitAnswer{Action: runner.MCPElicitCancel}, ctx.Err()
	}
}
