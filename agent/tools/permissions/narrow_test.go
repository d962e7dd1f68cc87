package permissions

import (
	"path/filepath"
	"slices"
	"testing"
)

// texts of rules, for comparing.
func ruleTexts(rules []Rule) []string {
	var out []string
	for _, r := range rules {
		out = append(out, r.Text)
	}
	return out
}

// checkGrant checks that the grants allow the call they were made for, are
// allow rules, and never name a whole bash or file tool.
func checkGrant(t *testing.T, rules []Rule, call Call, env Env, grants []Rule) {
	t.Helper()
	for _, g := range grants {
		if g.Kind != Allow || g.whole() && g.family != familyMCP && g.family != "Task" {
			t.Errorf("%+v: grant %q is not a narrow allow rule", call, g.Text)
		}
	}
	if d := Evaluate(append(slices.Clone(rules), grants...), call, env); d.Verdict != Allowed {
		t.Errorf("%+v: with grants %v the call is %s (%s)", call, ruleTexts(grants), d.Verdict, d.Reason)
	}
}

func TestNarrowBash(t *testing.T) {
	f := newFixture(t)
	rules := rulesA.parse(t)
	for _, tc := range []struct {
		cmd  string
		want []string
	}{
		{"npm install left-pad", []string{"Bash(npm install left-pad:*)"}},
		{"git commit -m \"msg\"", []string{"Bash(git commit:*)"}},
		{"go build ./...", []string{"Bash(go build:*)"}},
		{"python3 script.py", []string{"Bash(python3:*)"}},
		{"ls && foo bar", []string{"Bash(foo bar:*)"}},
		{"foo && bar", []string{"Bash(foo:*)", "Bash(bar:*)"}},
		{"foo; foo", []string{"Bash(foo:*)"}},
		{"timeout 5 foo", []string{"Bash(timeout:*)", "Bash(foo:*)"}},
		{"FOO=1 make test", []string{"Bash(FOO=1 make test:*)", "Bash(make test:*)"}},
		{"./build.sh --fast", []string{"Bash(./build.sh:*)"}},
		{"make 2>&1", []string{"Bash(make:*)"}},
		{"cargo test --release", []string{"Bash(cargo test:*)"}},
		{"kubectl get pods -n x", []string{"Bash(kubectl get pods:*)"}},
		{"npm version 1.2.3", []string{"Bash(npm version:*)"}},
		{"echo $(date)", []string{"Bash(echo $(date))"}},
		{"npm test > /etc/passwd", []string{"Bash(npm test > /etc/passwd)"}},
		{"cat x | sh", []string{"Bash(cat x | sh)"}},
		{"ls", nil},
		{"rm x", nil},
		{"ls && rm x", nil},
		{"git push", nil},
	} {
		call := Call{Tool: "bash", Command: tc.cmd}
		got := Narrow(rules, call, f.env)
		if !slices.Equal(ruleTexts(got), tc.want) {
			t.Errorf("Narrow(%q) = %q, want %q", tc.cmd, ruleTexts(got), tc.want)
			continue
		}
		if d := Evaluate(rules, call, f.env); !slices.Equal(d.Suggest, tc.want) {
			t.Errorf("Evaluate(%q).Suggest = %q, want %q", tc.cmd, d.Suggest, tc.want)
		}
		if len(got) > 0 {
			checkGrant(t, rules, call, f.env, got)
		}
	}
}

func TestNarrowFiles(t *testing.T) {
	f := newFixture(t)
	rules := ruleSet{deny: []string{"Read(.env)"}}.parse(t)
	root := filepath.Dir(f.ws)
	for _, tc := range []struct {
		call Call
		want []string
	}{
		{Call{Tool: "read", Paths: []string{root + "/x/a.txt"}}, []string{"Read(/" + root + "/x/**)"}},
		{Call{Tool: "edit", Paths: []string{f.ws + "/src/app/main.go"}, Write: true}, []string{"Edit(./src/app/**)"}},
		{Call{Tool: "write", Paths: []string{f.ws + "/main.go"}, Write: true}, []string{"Edit(./main.go)"}},
		{Call{Tool: "ls", Paths: []string{f.ws + "/src"}}, []string{"Read(./src/**)"}},
		{Call{Tool: "ls", Paths: []string{f.ws}}, []string{"Read(./)"}},
		{Call{Tool: "find", Paths: []string{root + "/x"}}, []string{"Read(/" + root + "/x/**)"}},
		{Call{Tool: "read", Paths: []string{"/foo.txt"}}, []string{"Read(//foo.txt)"}},
		{Call{Tool: "read", Paths: []string{root + "/x/a", root + "/y/b"}}, []string{"Read(/" + root + "/x/**)", "Read(/" + root + "/y/**)"}},
		{Call{Tool: "edit", Paths: []string{f.ws + "/src/[id]/page.tsx"}, Write: true}, []string{`Edit(./src/\[id\]/**)`}},
		{Call{Tool: "write", Paths: []string{f.ws + "/.git/config"}, Write: true}, nil},
		{Call{Tool: "read", Paths: []string{f.ws + "/.env"}}, nil},
		{Call{Tool: "ls", Paths: []string{"/"}}, nil},
		{Call{Tool: "fetch", URL: "https://API.example.org/v1"}, []string{"WebFetch(domain:api.example.org)"}},
		{Call{Tool: "fetch", URL: "::"}, nil},
		{Call{Tool: "mcp__srv__tool"}, []string{"mcp__srv__tool"}},
		{Call{Tool: "task"}, []string{"Task"}},
		{Call{Tool: "todo"}, nil},
	} {
		got := Narrow(rules, tc.call, f.env)
		if !slices.Equal(ruleTexts(got), tc.want) {
			t.Errorf("Narrow(%+v) = %q, want %q", tc.call, ruleTexts(got), tc.want)
			continue
		}
		if len(got) > 0 {
			checkGrant(t, rules, tc.call, f.env, got)
		}
	}
}

// TestNarrowOutsideReadScope is the check: a grant for reading
// ../x/a.txt allows ../x/b.txt but not ../y/c.txt.
func TestNarrowOutsideReadScope(t *testing.T) {
	f := newFixture(t)
	read := func(rel string) Call {
		return Call{Tool: "read", Paths: []string{filepath.Clean(filepath.Join(f.ws, rel))}}
	}
	grants := Narrow(nil, read("../x/a.txt"), f.env)
	if len(grants) != 1 {
		t.Fatalf("grants %q, want one", ruleTexts(grants))
	}
	for rel, want := range map[string]Verdict{"../x/a.txt": Allowed, "../x/b.txt": Allowed, "../x/sub/c.txt": Allowed, "../y/c.txt": Undecided, "../xy/c.txt": Undecided} {
		if d := Evaluate(grants, read(rel), f.env); d.Verdict != want {
			t.Errorf("after %q, read %s is %s, want %s", grants[0].Text, rel, d.Verdict, want)
		}
	}
	if d := Evaluate(grants, Call{Tool: "edit", Paths: read("../x/b.txt").Paths, Write: true}, f.env); d.Verdict != Undecided {
		t.Errorf("a read grant covers an edit: %s", d.Verdict)
	}
}
