package permissions

import (
	"strings"
	"testing"
)

func TestParseGood(t *testing.T) {
	for _, tc := range []struct {
		text   string
		family string
		spec   string
		prefix bool
	}{
		{"Bash", "Bash", "", false},
		{"Bash(npm run test:*)", "Bash", "npm run test", true},
		{"Bash(git status)", "Bash", "git status", false},
		{"Bash( git   status )", "Bash", "git status", false},
		{"Bash(echo (x))", "Bash", "echo (x)", false},
		{"Bash(* --version)", "Bash", "* --version", false},
		{"Bash(git:* status)", "Bash", "git:* status", false},
		{"bash(ls:*)", "bash", "ls", true},
		{"Read", "Read", "", false},
		{"Read(./docs/**)", "Read", "./docs/**", false},
		{"Read(//etc/hosts)", "Read", "//etc/hosts", false},
		{"Read(~/.zshrc)", "Read", "~/.zshrc", false},
		{"Edit(src/**)", "Edit", "src/**", false},
		{"Edit(/src/*.go)", "Edit", "/src/*.go", false},
		{"Write(.env)", "Write", ".env", false},
		{"Write(*.{key,pem})", "Write", "*.{key,pem}", false},
		{"Glob(src/**)", "Glob", "src/**", false},
		{"Grep(docs/)", "Grep", "docs/", false},
		{"LS(//tmp)", "LS", "//tmp", false},
		{"MultiEdit(src/**)", "MultiEdit", "src/**", false},
		{"read(./notes.md)", "read", "./notes.md", false},
		{"ls", "ls", "", false},
		{"find(src)", "find", "src", false},
		{"WebFetch", "WebFetch", "", false},
		{"WebFetch(domain:example.com)", "WebFetch", "example.com", false},
		{"WebFetch(domain:Example.COM)", "WebFetch", "example.com", false},
		{"WebFetch(domain:*.github.com)", "WebFetch", "*.github.com", false},
		{"fetch(domain:go.dev)", "fetch", "go.dev", false},
		{"Task", "Task", "", false},
		{"task", "task", "", false},
		{"mcp__github", familyMCP, "mcp__github__", true},
		{"mcp__github__*", familyMCP, "mcp__github__", true},
		{"mcp__github__create_issue", familyMCP, "mcp__github__create_issue", false},
		{"mcp__my-server__get_thing", familyMCP, "mcp__my-server__get_thing", false},
		{"  Bash(ls:*)  ", "Bash", "ls", true},
	} {
		r, err := Parse(tc.text, Allow)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.text, err)
			continue
		}
		if r.family != tc.family || r.spec != tc.spec || r.prefix != tc.prefix || r.Text != tc.text || r.Kind != Allow {
			t.Errorf("Parse(%q) = %+v, want family %q spec %q prefix %v", tc.text, r, tc.family, tc.spec, tc.prefix)
		}
	}
}

func TestParseBad(t *testing.T) {
	for _, tc := range []struct {
		text, kind, want string
	}{
		{"", "allow", "empty rule"},
		{"   ", "deny", "empty rule"},
		{"Bash(ls:*)", "maybe", "unknown rule list"},
		{"Bash(", "allow", "must end with"},
		{"Bash(ls", "allow", "must end with"},
		{"Bash)", "allow", "without"},
		{"Bash()", "allow", "empty spec"},
		{"Bash(  )", "allow", "empty spec"},
		{"Bash(:*)", "allow", "no command"},
		{"(ls)", "allow", "no tool name"},
		{"Bsh(ls)", "allow", "unknown tool"},
		{"bash tool", "allow", "blank"},
		{"Shell(ls)", "allow", "unknown tool"},
		{"Read(ls:*)", "allow", "command spec"},
		{"Edit(npm run test:*)", "allow", "command spec"},
		{"Read(domain:example.com)", "allow", "WebFetch spec"},
		{"Read(~root/x)", "allow", "home directory"},
		{"Read(src/[a)", "allow", "not a valid glob"},
		{"WebFetch(example.com)", "allow", "domain:HOST"},
		{"WebFetch(domain:)", "allow", "no host"},
		{"WebFetch(domain:https://example.com/x)", "allow", "host name"},
		{"WebFetch(domain:exa*mple.com)", "allow", "host name"},
		{"Task(explorer)", "allow", "takes no spec"},
		{"mcp__github(create_issue)", "allow", "no parentheses"},
		{"mcp__", "allow", "server name"},
		{"mcp____tool", "allow", "server name"},
		{"mcp__github__", "allow", "tool name"},
		{"mcp__git hub", "allow", "blank"},
		{"mcp__github__a.b", "allow", "tool name"},
	} {
		_, err := Parse(tc.text, Kind(tc.kind))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q, %s) error = %v, want one saying %q", tc.text, tc.kind, err, tc.want)
		}
	}
}

// TestRulesCompare: rules are values the integrator can compare and use as
// map keys (to remove one from a list, to deduplicate grants).
func TestRulesCompare(t *testing.T) {
	a, _ := Parse("Bash(git log:*)", Allow)
	b, _ := Parse("Bash(git log:*)", Allow)
	c, _ := Parse("Bash(git log:*)", Deny)
	if a != b || a == c {
		t.Errorf("equal texts and kinds must give equal rules: %+v %+v %+v", a, b, c)
	}
	seen := map[Rule]bool{a: true}
	if !seen[b] {
		t.Error("a rule is not usable as a map key")
	}
}
