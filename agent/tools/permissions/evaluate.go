package permissions

import (
	"fmt"
	"strings"
)

// Call is what a tool call would do, as the gate sees it.
type Call struct {
	// Tool is steer's tool name: bash, read, write, edit, ls, find, grep,
	// fetch, task, mcp__srv__tool, …
	Tool string
	// Command is a bash call's command string.
	Command string
	// Paths are a file tool's paths: absolute, symlinks resolved (the gate
	// resolves them).
	Paths []string
	// Write is set when the call writes Paths (write, edit).
	Write bool
	// URL is a fetch call's address.
	URL string
}

// Env is where rules and paths are resolved.
type Env struct {
	// Workspace is absolute, symlinks resolved.
	Workspace string
	// Home is the user's home directory, for ~ in rules and commands.
	Home string
	// Protected are absolute paths (files or directories) whose writes
	// always ask: the workspace's .git, steer's config and state dirs, the
	// trusted files.
	Protected []string
}

// Verdict is what the rules say about a call or a part of one.
type Verdict string

// The verdicts.
const (
	// Undecided: no rule covers it; the approval mode decides.
	Undecided Verdict = "undecided"
	// Allowed: allow rules cover it and nothing forces an ask.
	Allowed Verdict = "allowed"
	// Asks: an ask rule, or something no allow can vouch for (see
	// Decision.Forced).
	Asks Verdict = "asks"
	// Denied: a deny rule covers it.
	Denied Verdict = "denied"
)

// Part is one simple command of a bash command (or one target of another
// tool), judged alone.
type Part struct {
	// Text is the part as judged: words after unquoting, joined by single
	// spaces (a word that is not fully literal keeps its source text). For
	// a construct outside any simple command that forces an ask (a
	// redirect of a group, a loop's word list) it is that construct's
	// source; for a file tool, the path; for fetch, the URL; else the tool.
	Text    string
	Verdict Verdict
	// Rule is the rule (as written) that decided it, "" for Undecided and
	// for a forced ask.
	Rule string
	// Reason is set for a forced ask: "command substitution", "writes
	// outside the workspace: /etc/passwd", …
	Reason string
	// Wrapper: the part is a wrapper judged as itself (sudo …); its inner
	// command is a Part of its own.
	Wrapper bool
}

// Decision is the verdict on a whole call.
type Decision struct {
	Verdict Verdict
	// Rule is, for a denial, the deny rule as written; for an ask by rule,
	// the ask rule; for Allowed, the allow rule that covered the whole call
	// (the one part's rule for a call of one part), or "" when the parts
	// were allowed each by a rule of its own.
	Rule string
	// Parts are, for bash, every simple command found, in source order;
	// for file tools one part per path; otherwise one part.
	Parts []Part
	// Forced is set when the ask comes from the command itself
	// (substitution, eval, variable in command position, a script fed to an
	// interpreter, a redirect writing outside the workspace, to a protected
	// path or to an unknown target, a parse error, a write to a protected
	// path), not from an ask rule: the gate refuses it in auto mode with
	// Reason.
	Forced bool
	// Reason is one line: why the call is allowed, asks or is denied. The
	// reason of an ask never contains the words "deny" or "denied".
	Reason string
	// Suggest are, for Asks and Undecided, the narrowest rules that would
	// allow the call (see Narrow), for "needs approval" messages.
	Suggest []string
}

// Evaluate judges call against rules (in any order; precedence deny > ask >
// allow).
func Evaluate(rules []Rule, call Call, env Env) Decision {
	j := judge(rules, call, env)
	d := j.decision
	if d.Verdict == Asks || d.Verdict == Undecided {
		for _, r := range j.narrow(rules, call, env) {
			d.Suggest = append(d.Suggest, r.Text)
		}
	}
	return d
}

// judgement is a decision with what Narrow needs to know about it.
type judgement struct {
	decision Decision
	// cmdParts are a bash call's parts, parallel to decision.Parts.
	cmdParts []*cmdPart
	// askRule: an ask rule covers the call or one of its parts, so no
	// allow rule can let it run.
	askRule bool
}

// judge decides on call without suggestions.
func judge(rules []Rule, call Call, env Env) judgement {
	switch {
	case call.Tool == toolBash:
		return judgeBash(rules, call, env)
	case isFileTool(call.Tool) || len(call.Paths) > 0:
		d := judgeFiles(rules, call, env)
		return judgement{decision: d, askRule: hasAskRule(d.Parts)}
	}
	subject := call.Tool
	if call.Tool == toolFetch && call.URL != "" {
		subject = call.URL
	}
	p := judgeOne(rules, subject, func(r Rule) bool { return r.covers(call.Tool) && matchOther(r, call) })
	return judgement{decision: combine([]Part{p}, ""), askRule: hasAskRule([]Part{p})}
}

// hasAskRule reports whether an ask rule decided one of the parts.
func hasAskRule(parts []Part) bool {
	for _, p := range parts {
		if p.Verdict == Asks && p.Rule != "" {
			return true
		}
	}
	return false
}

// matchOther matches a rule of a tool judged as a whole: fetch by host, the
// rest (mcp, task) by name alone, which covers already checked.
func matchOther(r Rule, call Call) bool {
	if r.whole() {
		return true
	}
	if call.Tool == toolFetch {
		return matchHost(r.spec, hostOf(call.URL))
	}
	return false
}

// judgeOne judges one subject with the rules that match returns true for:
// the first deny, else the first ask, else the first allow.
func judgeOne(rules []Rule, subject string, match func(Rule) bool) Part {
	p := Part{Text: subject, Verdict: Undecided}
	for _, k := range []Kind{Deny, Ask, Allow} {
		for _, r := range rules {
			if r.Kind == k && match(r) {
				p.Verdict, p.Rule = verdictOf[k], r.Text
				return p
			}
		}
	}
	return p
}

// verdictOf is the verdict each rule list gives.
var verdictOf = map[Kind]Verdict{Deny: Denied, Ask: Asks, Allow: Allowed}

// combine decides on a call from its judged parts: any part denied denies
// it; else a forced ask asks (Forced); else an ask rule asks; else it is
// allowed when every part is; else undecided. whole is the allow rule that
// matched the whole call, which stands for parts no rule allowed and for
// forced asks.
func combine(parts []Part, whole string) Decision {
	d := Decision{Parts: parts}
	var forced, asked, open *Part
	for i := range parts {
		p := &parts[i]
		if p.Verdict == Denied {
			d.Verdict, d.Rule = Denied, p.Rule
			d.Reason = fmt.Sprintf("denied by rule %s: %s", p.Rule, oneLine(p.Text))
			return d
		}
		if p.Reason != "" && forced == nil {
			forced = p
		}
		if p.Verdict == Asks && p.Rule != "" && asked == nil {
			asked = p
		}
		if p.Verdict == Undecided && open == nil {
			open = p
		}
	}
	if asked == nil && whole != "" {
		for i := range parts {
			if parts[i].Verdict != Allowed {
				parts[i].Verdict, parts[i].Rule = Allowed, whole
			}
		}
		d.Verdict, d.Rule = Allowed, whole
		d.Reason = "allowed by rule " + whole
		return d
	}
	switch {
	case forced != nil:
		d.Verdict, d.Forced = Asks, true
		d.Reason = fmt.Sprintf("%s (%s)", forced.Reason, oneLine(forced.Text))
	case asked != nil:
		d.Verdict, d.Rule = Asks, asked.Rule
		d.Reason = fmt.Sprintf("rule %s asks for %s", asked.Rule, oneLine(asked.Text))
	case open != nil || len(parts) == 0:
		d.Verdict = Undecided
		d.Reason = "no rule covers " + oneLine(undecidedText(parts))
	default:
		d.Verdict = Allowed
		d.Reason = "every part is allowed"
		if len(parts) == 1 {
			d.Rule = parts[0].Rule
			d.Reason = "allowed by rule " + d.Rule
		}
	}
	return d
}

// undecidedText names the parts no rule covers.
func undecidedText(parts []Part) string {
	var open []string
	for _, p := range parts {
		if p.Verdict == Undecided {
			open = append(open, p.Text)
		}
	}
	if len(open) == 0 {
		return "the empty command"
	}
	return strings.Join(open, ", ")
}

// maxReasonText bounds the text a reason quotes.
const maxReasonText = 120

// oneLine makes s fit a one-line reason.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > maxReasonText {
		s = s[:maxReasonText] + "…"
	}
	return s
}
