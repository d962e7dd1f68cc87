package permissions

import "testing"

func TestEvaluateMCPFetchTask(t *testing.T) {
	rules := ruleSet{
		allow: []string{"mcp__github__get_issue", "mcp__docs", "WebFetch(domain:example.com)", "WebFetch(domain:*.github.io)", "fetch(domain:go.dev)", "Task"},
		ask:   []string{"mcp__github__create_issue", "WebFetch(domain:ask.example.com)"},
		deny:  []string{"mcp__evil__*", "WebFetch(domain:bad.example.com)"},
	}.parse(t)
	env := Env{Workspace: "/ws/proj", Home: "/home/u"}
	for _, tc := range []struct {
		call    Call
		verdict Verdict
		rule    string
	}{
		{Call{Tool: "mcp__github__get_issue"}, Allowed, "mcp__github__get_issue"},
		{Call{Tool: "mcp__github__create_issue"}, Asks, "mcp__github__create_issue"},
		{Call{Tool: "mcp__github__delete_repo"}, Undecided, ""},
		{Call{Tool: "mcp__docs__search"}, Allowed, "mcp__docs"},
		{Call{Tool: "mcp__docsx__search"}, Undecided, ""},
		{Call{Tool: "mcp__evil__anything"}, Denied, "mcp__evil__*"},
		{Call{Tool: "fetch", URL: "https://example.com/page"}, Allowed, "WebFetch(domain:example.com)"},
		{Call{Tool: "fetch", URL: "https://EXAMPLE.com./page"}, Allowed, "WebFetch(domain:example.com)"},
		{Call{Tool: "fetch", URL: "http://example.com:8080/x"}, Allowed, "WebFetch(domain:example.com)"},
		{Call{Tool: "fetch", URL: "https://sub.example.com/"}, Undecided, ""},
		{Call{Tool: "fetch", URL: "https://example.com.evil.net/"}, Undecided, ""},
		{Call{Tool: "fetch", URL: "https://ask.example.com/"}, Asks, "WebFetch(domain:ask.example.com)"},
		{Call{Tool: "fetch", URL: "https://bad.example.com/"}, Denied, "WebFetch(domain:bad.example.com)"},
		{Call{Tool: "fetch", URL: "https://me.github.io/x"}, Allowed, "WebFetch(domain:*.github.io)"},
		{Call{Tool: "fetch", URL: "https://github.io/x"}, Undecided, ""},
		{Call{Tool: "fetch", URL: "https://go.dev/doc"}, Allowed, "fetch(domain:go.dev)"},
		{Call{Tool: "fetch", URL: "not a url"}, Undecided, ""},
		{Call{Tool: "task"}, Allowed, "Task"},
		{Call{Tool: "todo"}, Undecided, ""},
	} {
		d := Evaluate(rules, tc.call, env)
		if d.Verdict != tc.verdict || d.Rule != tc.rule || d.Forced || len(d.Parts) != 1 {
			t.Errorf("%+v: got %s rule=%q forced=%v parts=%d; want %s rule=%q", tc.call, d.Verdict, d.Rule, d.Forced, len(d.Parts), tc.verdict, tc.rule)
		}
		checkDecision(t, tc.call.Tool, d)
	}
}

// TestParts pins what the dialog shows: each part's text, verdict, rule,
// reason and wrapper flag, in source order.
func TestParts(t *testing.T) {
	f := newFixture(t)
	rules := rulesA.parse(t)
	for _, tc := range []struct {
		cmd   string
		parts []Part
	}{
		{"ls && rm -rf x", []Part{
			{Text: "ls", Verdict: Allowed, Rule: ls},
			{Text: "rm -rf x", Verdict: Denied, Rule: rm},
		}},
		{"echo $(rm x)", []Part{
			{Text: "echo $(rm x)", Verdict: Asks, Reason: reasonCmdSubst},
			{Text: "rm x", Verdict: Denied, Rule: rm},
		}},
		{"sudo -u root timeout 5 'l's -la", []Part{
			{Text: "sudo -u root timeout 5 ls -la", Verdict: Denied, Rule: sudo, Wrapper: true},
			{Text: "timeout 5 ls -la", Verdict: Undecided, Wrapper: true},
			{Text: "ls -la", Verdict: Allowed, Rule: ls},
		}},
		{"FOO=1 git status", []Part{
			{Text: "FOO=1 git status", Verdict: Undecided, Wrapper: true},
			{Text: "git status", Verdict: Allowed, Rule: "Bash(git status)"},
		}},
		{"npm test > /etc/passwd", []Part{
			{Text: "npm test", Verdict: Asks, Reason: "writes outside the workspace: /etc/passwd"},
		}},
		{"{ ls; } > /etc/x", []Part{
			{Text: "ls", Verdict: Allowed, Rule: ls},
			{Text: "> /etc/x", Verdict: Asks, Reason: "writes outside the workspace: /etc/x"},
		}},
		{"git status; curl x | sh", []Part{
			{Text: "git status", Verdict: Allowed, Rule: "Bash(git status)"},
			{Text: "curl x", Verdict: Denied, Rule: curl},
			{Text: "sh", Verdict: Asks, Reason: "pipe into an interpreter: sh"},
		}},
		{"bash -c 'ls; rm x'", []Part{
			{Text: "bash -c ls; rm x", Verdict: Undecided, Wrapper: true},
			{Text: "ls", Verdict: Allowed, Rule: ls},
			{Text: "rm x", Verdict: Denied, Rule: rm},
		}},
		{"time ls", []Part{
			{Text: "time ls", Verdict: Undecided, Wrapper: true},
			{Text: "ls", Verdict: Allowed, Rule: ls},
		}},
		{"echo \"a  b\" 'c'", []Part{{Text: "echo a  b c", Verdict: Allowed, Rule: echo}}},
		{"ls $HOME/x", []Part{{Text: "ls $HOME/x", Verdict: Allowed, Rule: ls}}},
		{"x", []Part{{Text: "x", Verdict: Undecided}}},
	} {
		d := Evaluate(rules, Call{Tool: "bash", Command: tc.cmd}, f.env)
		if len(d.Parts) != len(tc.parts) {
			t.Errorf("%q: parts %s, want %d", tc.cmd, partsString(d.Parts), len(tc.parts))
			continue
		}
		for i, want := range tc.parts {
			if d.Parts[i] != want {
				t.Errorf("%q part %d = %+v, want %+v", tc.cmd, i, d.Parts[i], want)
			}
		}
	}
}

// TestReasons pins the one-line reasons the gate shows.
func TestReasons(t *testing.T) {
	f := newFixture(t)
	rules := rulesA.parse(t)
	for cmd, want := range map[string]string{
		"ls && rm -rf x":         "denied by rule Bash(rm:*): rm -rf x",
		"git push origin":        "rule Bash(git push:*) asks for git push origin",
		"npm test > /etc/passwd": "writes outside the workspace: /etc/passwd (npm test)",
		"ls && foo":              "no rule covers foo",
		"ls && pwd":              "every part is allowed",
		"ls":                     "allowed by rule Bash(ls:*)",
	} {
		if d := Evaluate(rules, Call{Tool: "bash", Command: cmd}, f.env); d.Reason != want {
			t.Errorf("%q: reason %q, want %q", cmd, d.Reason, want)
		}
	}
}
