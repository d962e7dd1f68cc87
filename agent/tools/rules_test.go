package tools

import (
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/tools/permissions"
)

// TestRule: the gate's verdict from the rules' decision, the mode and the
// hooks' vote.
func TestRule(t *testing.T) {
	inside := Access{Tool: "bash", Mutating: true}
	read := Access{Tool: "read"}
	outside := Access{Tool: "read", Outside: true, Paths: []string{"/etc/x"}}
	denied := permissions.Decision{Verdict: permissions.Denied, Rule: "Bash(rm:*)"}
	allowed := permissions.Decision{Verdict: permissions.Allowed}
	askRule := permissions.Decision{Verdict: permissions.Asks, Rule: "Bash(git push:*)"}
	forced := permissions.Decision{Verdict: permissions.Asks, Forced: true, Reason: "command substitution"}
	undecided := permissions.Decision{Verdict: permissions.Undecided}
	for _, tc := range []struct {
		name      string
		mode      Mode
		vote      HookVote
		d         permissions.Decision
		a         Access
		alwaysAsk string
		want      Verdict
		text      string // in the refusal
	}{
		{"deny beats auto", ModeAuto, HookNone, denied, inside, "", Refuse, "denied by rule Bash(rm:*)"},
		{"deny beats a hook's allow", ModeAsk, HookAllow, denied, inside, "", Refuse, "denied by rule"},
		{"deny beats a protected write", ModeAsk, HookNone, denied, inside, "write to a protected path: .git/config", Refuse, "denied by rule"},
		{"allow runs in ask", ModeAsk, HookNone, allowed, inside, "", Run, ""},
		{"allow runs in never", ModeNever, HookNone, allowed, inside, "", Run, ""},
		{"allow runs outside", ModeAsk, HookNone, allowed, outside, "", Run, ""},
		{"a hook's ask beats allow", ModeAuto, HookAsk, allowed, inside, "", Ask, ""},
		{"protected asks in auto", ModeAuto, HookNone, allowed, inside, "write to a protected path: .git/config", Ask, ""},
		{"protected refused in never", ModeNever, HookNone, allowed, inside, "write to a protected path: .git/config", Refuse, "never asks"},
		{"forced refused in auto", ModeAuto, HookNone, forced, inside, "", Refuse, "needs approval: command substitution"},
		{"forced asks in ask", ModeAsk, HookNone, forced, inside, "", Ask, ""},
		{"forced refused in never", ModeNever, HookNone, forced, inside, "", Refuse, "command substitution"},
		{"ask rule asks in auto", ModeAuto, HookNone, askRule, inside, "", Ask, ""},
		{"ask rule refused in never", ModeNever, HookNone, askRule, inside, "", Refuse, "rule Bash(git push:*)"},
		{"undecided: auto runs a command", ModeAuto, HookNone, undecided, inside, "", Run, ""},
		{"undecided: ask asks a command", ModeAsk, HookNone, undecided, inside, "", Ask, ""},
		{"undecided: a read runs", ModeAsk, HookNone, undecided, read, "", Run, ""},
		{"undecided: auto refuses outside", ModeAuto, HookNone, undecided, outside, "", Refuse, "outside the workspace"},
		{"undecided: a hook's allow runs", ModeAsk, HookAllow, undecided, inside, "", Run, ""},
		{"undecided: never refuses", ModeNever, HookNone, undecided, inside, "", Refuse, "refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rule(tc.mode, tc.vote, tc.d, tc.a, tc.alwaysAsk)
			if r.verdict != tc.want {
				t.Fatalf("verdict = %v, want %v (%s)", r.verdict, tc.want, r.text)
			}
			if !strings.Contains(r.text, tc.text) {
				t.Errorf("text = %q, want it to contain %q", r.text, tc.text)
			}
			if tc.d.Verdict != permissions.Denied && strings.Contains(strings.ToLower(r.text), "deny") {
				t.Errorf("a call nothing denied reads %q", r.text)
			}
		})
	}
}
