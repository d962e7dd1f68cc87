package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/steer-tui/steer/agent/tools/permissions"
)

// Rulebook gives a gate the permission rules in force and where they are
// resolved. The gate reads them at every call: /permissions may change the
// config's rules while a session goes on.
type Rulebook interface {
	Rules() []permissions.Rule
	Env() permissions.Env
}

// RefusedByRule: a deny rule refused the call. Like RefusedByHook it does
// not end the turn: the model reads which rule and goes on.
const RefusedByRule = "rule"

// ruling is the gate's verdict on one call, with what a refusal says.
type ruling struct {
	verdict Verdict
	// refused is the RefusalDetails reason and text the result's text,
	// when verdict is Refuse.
	refused, text string
}

// rule decides a call from the rules' decision d, the approval mode and
// the hooks' vote (pure; gate_rules_test.go). Precedence: a deny rule, a
// write that always asks (a protected path, a path the sandbox is asked
// to open), what the command itself makes ask (a substitution, an outside
// redirect: refused in auto, where nobody is asked), an ask rule, an allow
// rule, then the mode as before rules existed.
func rule(mode Mode, vote HookVote, d permissions.Decision, a Access, alwaysAsk string) ruling {
	switch {
	case d.Verdict == permissions.Denied:
		return ruling{verdict: Refuse, refused: RefusedByRule, text: "denied by rule " + d.Rule}
	case d.Verdict == permissions.Allowed && alwaysAsk == "":
		if vote == HookAsk {
			return ruling{verdict: Ask}
		}
		return ruling{verdict: Run}
	case mode == ModeNever && (alwaysAsk != "" || d.Verdict == permissions.Asks):
		return ruling{verdict: Refuse, refused: RefusedByPolicy, text: fmt.Sprintf(
			"refused: tool approval is %q, which never asks, and this %s call needs approval (%s)",
			ModeNever, a.Tool, askReason(d, alwaysAsk))}
	case alwaysAsk != "":
		return ruling{verdict: Ask}
	case d.Verdict == permissions.Asks && d.Forced && mode == ModeAuto:
		return ruling{verdict: Refuse, refused: RefusedByPolicy, text: forcedReason(d)}
	case d.Verdict == permissions.Asks:
		return ruling{verdict: Ask}
	}
	v := hookedDecision(vote, Decide(mode, a), a)
	if v == Refuse {
		return ruling{verdict: Refuse, refused: RefusedByPolicy, text: refusalReason(mode, a)}
	}
	return ruling{verdict: v}
}

// askReason says why a call needs a person's approval.
func askReason(d permissions.Decision, alwaysAsk string) string {
	switch {
	case alwaysAsk != "":
		return alwaysAsk
	case d.Reason != "":
		return d.Reason
	case d.Rule != "":
		return "rule " + d.Rule
	}
	return noRuleAllows
}

// noRuleAllows is why a call asks when no rule covers it and the mode asks.
const noRuleAllows = "no rule allows it"

// forcedReason is what auto mode says of a call that only a person may
// allow (a forced ask). It names no "deny": nothing denied it.
func forcedReason(d permissions.Decision) string {
	return fmt.Sprintf("needs approval: %s, which no rule allows part by part, and tool approval %q never asks%s",
		d.Reason, ModeAuto, allowHint(d.Suggest, "; a rule allowing the whole command would let it run: "))
}

// allowHint names the rules that would allow a call, after lead.
func allowHint(rules []string, lead string) string {
	if len(rules) == 0 {
		return ""
	}
	return lead + strings.Join(rules, ", ") + " in permissions.allow"
}

// permissionCall is what the rules judge of a call with args and access a.
func permissionCall(a Access, args map[string]any) permissions.Call {
	c := permissions.Call{Tool: a.Tool}
	switch a.Tool {
	case "bash":
		c.Command = stringArg(args, "command")
	case "fetch":
		c.URL = stringArg(args, "url")
	case "read", "ls", "find", "grep", "write", "edit":
		c.Paths = a.Paths
		c.Write = a.Mutating
	}
	return c
}

// protectedWrite names the first protected path a file tool's call would
// write, "" for none: such a write always asks, whatever the mode.
func protectedWrite(a Access, env permissions.Env) string {
	if !a.Mutating || a.Tool == "bash" {
		return ""
	}
	for _, p := range a.Paths {
		for _, pr := range env.Protected {
			if p == pr || within(pr, p) {
				return p
			}
		}
	}
	return ""
}

// StaticRules is a Rulebook that never changes.
type StaticRules struct {
	List  []permissions.Rule
	Where permissions.Env
}

// Rules returns the rules.
func (s StaticRules) Rules() []permissions.Rule { return s.List }

// Env returns where they resolve.
func (s StaticRules) Env() permissions.Env { return s.Where }

// NoRules is the rule book of a gate over the workspace dir that has no
// rules: the mode decides, and grants are resolved in dir.
func NoRules(dir string) StaticRules {
	home, _ := os.UserHomeDir()
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return StaticRules{Where: permissions.Env{Workspace: dir, Home: home}}
}

// withGrants is rules with the session's grants after them.
func withGrants(rules, grants []permissions.Rule) []permissions.Rule {
	if len(grants) == 0 {
		return rules
	}
	return append(slices.Clip(rules), grants...)
}
