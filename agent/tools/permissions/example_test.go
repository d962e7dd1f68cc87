package permissions_test

import (
	"fmt"

	"github.com/steer-tui/steer/agent/tools/permissions"
)

func ExampleEvaluate() {
	var rules []permissions.Rule
	for _, r := range []struct {
		text string
		kind permissions.Kind
	}{{"Bash(ls:*)", permissions.Allow}, {"Bash(rm:*)", permissions.Deny}} {
		rule, err := permissions.Parse(r.text, r.kind)
		if err != nil {
			fmt.Println(err)
			return
		}
		rules = append(rules, rule)
	}
	env := permissions.Env{Workspace: "/home/me/project", Home: "/home/me"}
	for _, cmd := range []string{"ls -la", "ls && rm -rf x", "ls > /etc/motd", "ls | wc -l"} {
		d := permissions.Evaluate(rules, permissions.Call{Tool: "bash", Command: cmd}, env)
		fmt.Printf("%s: %s (%s)\n", cmd, d.Verdict, d.Reason)
		for _, p := range d.Parts {
			fmt.Printf("  %s: %s\n", p.Text, p.Verdict)
		}
		if len(d.Suggest) > 0 {
			fmt.Printf("  would be allowed by %v\n", d.Suggest)
		}
	}
	// Output:
	// ls -la: allowed (allowed by rule Bash(ls:*))
	//   ls -la: allowed
	// ls && rm -rf x: denied (denied by rule Bash(rm:*): rm -rf x)
	//   ls: allowed
	//   rm -rf x: denied
	// ls > /etc/motd: asks (writes outside the workspace: /etc/motd (ls))
	//   ls: asks
	//   would be allowed by [Bash(ls > /etc/motd)]
	// ls | wc -l: undecided (no rule covers wc -l)
	//   ls: allowed
	//   wc -l: undecided
	//   would be allowed by [Bash(wc:*)]
}

func ExampleNarrow() {
	env := permissions.Env{Workspace: "/home/me/project", Home: "/home/me"}
	for _, call := range []permissions.Call{
		{Tool: "bash", Command: "git commit -m 'fix the parser' && npm run build"},
		{Tool: "read", Paths: []string{"/home/me/other/notes/todo.md"}},
		{Tool: "edit", Paths: []string{"/home/me/project/src/app/main.go"}, Write: true},
		{Tool: "fetch", URL: "https://pkg.go.dev/mvdan.cc/sh/v3"},
	} {
		for _, r := range permissions.Narrow(nil, call, env) {
			fmt.Println(r.Text)
		}
	}
	// Output:
	// Bash(git commit:*)
	// Bash(npm run build:*)
	// Read(//home/me/other/notes/**)
	// Edit(./src/app/**)
	// WebFetch(domain:pkg.go.dev)
}
