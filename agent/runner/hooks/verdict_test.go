package hooks

import (
	"reflect"
	"testing"
)

func TestInterpret(t *testing.T) {
	tests := []struct {
		name           string
		ev             Event
		exit           int
		stdout, stderr string
		want           Verdict
	}{
		{"exit 0 silent", PreToolUse, 0, "", "", Verdict{}},
		{"exit 0 plain text is context for prompts", UserPromptSubmit, 0, "today is Friday\n", "", Verdict{Context: "today is Friday"}},
		{"exit 0 plain text is context at session start", SessionStart, 0, "branch main", "", Verdict{Context: "branch main"}},
		{"exit 0 plain text elsewhere is nothing", PostToolUse, 0, "done", "", Verdict{}},
		{"exit 2 denies with stderr", PreToolUse, 2, "", "no rm here\n", Verdict{Decision: Deny, Reason: "no rm here"}},
		{"exit 2 with no stderr", Stop, 2, "", "", Verdict{Decision: Deny, Reason: "blocked by a Stop hook"}},
		{"exit 2 where nothing can be blocked", Notification, 2, "", "nope", Verdict{Problem: "exited with status 2 (Notification cannot block): nope"}},
		{"other exit reported", PreToolUse, 1, "", "boom\nmore", Verdict{Problem: "exited with status 1: boom"}},
		{"permissionDecision deny", PreToolUse, 0,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"risky"}}`, "",
			Verdict{Decision: Deny, Reason: "risky"}},
		{"permissionDecision ask", PreToolUse, 0, `{"hookSpecificOutput":{"permissionDecision":"ask"}}`, "", Verdict{Decision: Ask}},
		{"permissionDecision allow with updatedInput", PreToolUse, 0,
			`{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"ls"}}}`, "",
			Verdict{Decision: Allow, UpdatedInput: map[string]any{"command": "ls"}}},
		{"unknown permissionDecision", PreToolUse, 0, `{"hookSpecificOutput":{"permissionDecision":"maybe"}}`, "",
			Verdict{Problem: `unknown permissionDecision "maybe" (want allow, deny or ask)`}},
		{"permissionDecision outside PreToolUse", PostToolUse, 0, `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, "",
			Verdict{Problem: "permissionDecision is for PreToolUse hooks, not PostToolUse"}},
		{"legacy approve", PreToolUse, 0, `{"decision":"approve","reason":"fine"}`, "", Verdict{Decision: Allow, Reason: "fine"}},
		{"legacy block", PreToolUse, 0, `{"decision":"block","reason":"no"}`, "", Verdict{Decision: Deny, Reason: "no"}},
		{"PostToolUse block is feedback", PostToolUse, 0, `{"decision":"block","reason":"tests fail"}`, "", Verdict{Decision: Deny, Reason: "tests fail"}},
		{"block where nothing can be blocked", SessionEnd, 0, `{"decision":"block"}`, "",
			Verdict{Problem: `decision "block" means nothing for a SessionEnd hook`}},
		{"additionalContext", UserPromptSubmit, 0, `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx"}}`, "",
			Verdict{Context: "ctx"}},
		{"wrong hookEventName", UserPromptSubmit, 0, `{"hookSpecificOutput":{"hookEventName":"Stop"}}`, "",
			Verdict{Problem: `hookSpecificOutput.hookEventName is "Stop" in a UserPromptSubmit hook`}},
		{"continue false", Stop, 0, `{"continue":false,"stopReason":"enough"}`, "", Verdict{Stop: true, StopReason: "enough"}},
		{"bad JSON", PreToolUse, 0, `{"decision":`, "", Verdict{Problem: "its output is not valid JSON: unexpected end of JSON input"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Interpret(tt.ev, tt.exit, tt.stdout, tt.stderr); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Interpret = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestCombine(t *testing.T) {
	upd := map[string]any{"command": "ls"}
	tests := []struct {
		name string
		in   []Verdict
		want Result
	}{
		{"nothing", nil, Result{}},
		{"deny beats ask and allow", []Verdict{{Decision: Allow, Reason: "a"}, {Decision: Deny, Reason: "d"}, {Decision: Ask, Reason: "q"}},
			Result{Decision: Deny, Reason: "d", Ran: 3}},
		{"ask beats allow", []Verdict{{Decision: Allow}, {Decision: Ask, Reason: "check"}}, Result{Decision: Ask, Reason: "check", Ran: 2}},
		{"reasons of equal decisions join", []Verdict{{Decision: Deny, Reason: "x"}, {Decision: Deny, Reason: "y"}},
			Result{Decision: Deny, Reason: "x; y", Ran: 2}},
		{"problems count for nothing", []Verdict{{Problem: "timed out"}, {Decision: Allow, UpdatedInput: upd}},
			Result{Decision: Allow, UpdatedInput: upd, Ran: 2}},
		{"contexts all kept", []Verdict{{Context: "one"}, {Context: "two"}}, Result{Context: "one\ntwo", Ran: 2}},
		{"stop", []Verdict{{Stop: true, StopReason: "done"}, {}}, Result{Stop: true, StopReason: "done", Ran: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Combine(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Combine = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestMatcher(t *testing.T) {
	tests := []struct {
		matcher, tool string
		want          bool
	}{
		{"", "bash", true},
		{"*", "mcp__x__y", true},
		{"Bash", "bash", true},
		{"bash", "bash", true},
		{"Bash", "read", false},
		{"Edit|Write", "write", true},
		{"Edit|Write", "read", false},
		{"Glob", "find", true},
		{"WebFetch", "fetch", true},
		{"TodoWrite", "todo", true},
		{"Bas", "bash", false},
		{"mcp__memory__.*", "mcp__memory__save", true},
		{"mcp__memory__.*", "mcp__files__read", false},
		{"Notebook.*", "bash", false},
	}
	for _, tt := range tests {
		m, err := CompileMatcher(tt.matcher)
		if err != nil {
			t.Fatalf("CompileMatcher(%q): %v", tt.matcher, err)
		}
		if got := m.Match(tt.tool); got != tt.want {
			t.Errorf("%q matches %q = %v, want %v", tt.matcher, tt.tool, got, tt.want)
		}
	}
	if _, err := CompileMatcher("(["); err == nil {
		t.Error("a broken regular expression compiled")
	}
}
