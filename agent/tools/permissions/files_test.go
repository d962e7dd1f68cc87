package permissions

import (
	"os"
	"path/filepath"
	"testing"
)

var rulesFiles = ruleSet{
	allow: []string{
		"Read(./docs/**)", "Edit(src/**)", "Write(.env)", "Read(//etc/hosts)", "Read(~/notes/**)",
		"grep(./lib/**)", "Glob(./pkg/**)", "Edit(/config/*.json)", "Edit(./.git/**)",
	},
	ask:  []string{"Edit(src/generated/**)", "Read(docs/private.md)"},
	deny: []string{"Read(*.key)", "Read(.env)", "Edit(//etc/**)", "Write(secrets/)"},
}

// fileRow is one file-tool call and what Evaluate must say about it.
type fileRow struct {
	tool    string
	paths   []string
	write   bool
	verdict Verdict
	forced  bool
	rule    string
}

func TestEvaluateFiles(t *testing.T) {
	f := newFixture(t)
	rules := rulesFiles.parse(t)
	for _, tc := range []fileRow{
		{"read", []string{"{ws}/docs/a.md"}, false, Allowed, false, "Read(./docs/**)"},
		{"read", []string{"{ws}/docs/sub/b.md"}, false, Allowed, false, "Read(./docs/**)"},
		{"read", []string{"{ws}/docs"}, false, Allowed, false, "Read(./docs/**)"},
		{"read", []string{"{ws}/docsx/a.md"}, false, Undecided, false, ""},
		{"read", []string{"{ws}/src/main.go"}, false, Undecided, false, ""},
		{"ls", []string{"{ws}/docs"}, false, Allowed, false, "Read(./docs/**)"},
		{"find", []string{"{ws}/docs"}, false, Allowed, false, "Read(./docs/**)"},
		{"grep", []string{"{ws}/docs/x"}, false, Allowed, false, "Read(./docs/**)"},
		{"edit", []string{"{ws}/src/main.go"}, true, Allowed, false, "Edit(src/**)"},
		{"write", []string{"{ws}/src/new.go"}, true, Allowed, false, "Edit(src/**)"},
		{"edit", []string{"{ws}/src/generated/x.go"}, true, Asks, false, "Edit(src/generated/**)"},
		{"write", []string{"{ws}/.env"}, true, Allowed, false, "Write(.env)"},
		{"write", []string{"{ws}/sub/.env"}, true, Allowed, false, "Write(.env)"},
		{"edit", []string{"{ws}/.env"}, true, Undecided, false, ""},
		{"read", []string{"{ws}/.env"}, false, Denied, false, "Read(.env)"},
		{"read", []string{"{ws}/config/.env"}, false, Denied, false, "Read(.env)"},
		{"read", []string{"{home}/.ssh/id.key"}, false, Denied, false, "Read(*.key)"},
		{"read", []string{"{ws}/certs/server.key"}, false, Denied, false, "Read(*.key)"},
		{"read", []string{"/etc/hosts"}, false, Allowed, false, "Read(//etc/hosts)"},
		{"read", []string{"/etc/passwd"}, false, Undecided, false, ""},
		{"edit", []string{"/etc/hosts"}, true, Denied, false, "Edit(//etc/**)"},
		{"read", []string{"{home}/notes/todo.md"}, false, Allowed, false, "Read(~/notes/**)"},
		{"read", []string{"{home}/other.md"}, false, Undecided, false, ""},
		{"read", []string{"{ws}/docs/private.md"}, false, Asks, false, "Read(docs/private.md)"},
		{"write", []string{"{ws}/secrets/a.txt"}, true, Denied, false, "Write(secrets/)"},
		{"write", []string{"{ws}/.git/config"}, true, Asks, true, ""},
		{"edit", []string{"{ws}/.git/hooks/pre-commit"}, false, Asks, true, ""},
		{"read", []string{"{ws}/.git/config"}, false, Undecided, false, ""},
		{"mcp__fs__write_file", []string{"{ws}/.git/config"}, true, Asks, true, ""},
		{"read", []string{"{ws}/docs/a.md", "{ws}/docs/b.md"}, false, Allowed, false, ""},
		{"read", []string{"{ws}/docs/a.md", "{ws}/src/x.go"}, false, Undecided, false, ""},
		{"read", []string{"{ws}/docs/a.md", "{ws}/.env"}, false, Denied, false, "Read(.env)"},
		{"grep", []string{"{ws}/lib/x"}, false, Allowed, false, "grep(./lib/**)"},
		{"read", []string{"{ws}/lib/x"}, false, Undecided, false, ""},
		{"find", []string{"{ws}/pkg"}, false, Allowed, false, "Glob(./pkg/**)"},
		{"ls", []string{"{ws}/pkg"}, false, Undecided, false, ""},
		{"edit", []string{"{ws}/config/app.json"}, true, Allowed, false, "Edit(/config/*.json)"},
		{"edit", []string{"{ws}/config/sub/app.json"}, true, Undecided, false, ""},
		{"read", nil, false, Undecided, false, ""},
		{"read", []string{"{ws}/docs/../.env"}, false, Denied, false, "Read(.env)"},
	} {
		call := Call{Tool: tc.tool, Write: tc.write}
		for _, p := range tc.paths {
			call.Paths = append(call.Paths, f.expand(p))
		}
		d := Evaluate(rules, call, f.env)
		if d.Verdict != tc.verdict || d.Forced != tc.forced || d.Rule != tc.rule {
			t.Errorf("%s %v: got %s forced=%v rule=%q (%s); want %s forced=%v rule=%q",
				tc.tool, tc.paths, d.Verdict, d.Forced, d.Rule, d.Reason, tc.verdict, tc.forced, tc.rule)
		}
		if len(tc.paths) > 0 && len(d.Parts) != len(tc.paths) {
			t.Errorf("%s %v: %d parts, want one per path", tc.tool, tc.paths, len(d.Parts))
		}
		checkDecision(t, tc.tool, d)
	}
}

// TestEvaluateFilesWholeTool: a tool's name alone covers every path, and a
// protected write still asks.
func TestEvaluateFilesWholeTool(t *testing.T) {
	f := newFixture(t)
	rules := ruleSet{allow: []string{"Read", "Edit"}}.parse(t)
	for _, tc := range []fileRow{
		{"read", []string{"/etc/shadow"}, false, Allowed, false, "Read"},
		{"ls", nil, false, Allowed, false, "Read"},
		{"write", []string{"{ws}/a"}, true, Allowed, false, "Edit"},
		{"write", []string{"{ws}/.git/HEAD"}, true, Asks, true, ""},
		{"bash", nil, false, Undecided, false, ""},
	} {
		call := Call{Tool: tc.tool, Write: tc.write}
		for _, p := range tc.paths {
			call.Paths = append(call.Paths, f.expand(p))
		}
		if d := Evaluate(rules, call, f.env); d.Verdict != tc.verdict || d.Forced != tc.forced || d.Rule != tc.rule {
			t.Errorf("%s %v: got %s forced=%v rule=%q; want %s forced=%v rule=%q", tc.tool, tc.paths, d.Verdict, d.Forced, d.Rule, tc.verdict, tc.forced, tc.rule)
		}
	}
}

// TestEvaluateFilesSymlinkedBases: rules written through a symlinked
// directory (home, an absolute path, the protected set) match the resolved
// paths the gate passes.
func TestEvaluateFilesSymlinkedBases(t *testing.T) {
	f := newFixture(t)
	root := filepath.Dir(f.ws)
	real := filepath.Join(root, "real")
	if err := os.MkdirAll(filepath.Join(real, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	alias := filepath.Join(root, "alias")
	if err := os.Symlink(real, alias); err != nil {
		t.Fatal(err)
	}
	env := Env{Workspace: f.ws, Home: alias, Protected: []string{filepath.Join(alias, "state")}}
	rules := ruleSet{allow: []string{"Read(/" + alias + "/data/**)", "Read(~/notes/**)", "Edit(~/state/**)"}}.parse(t)
	for _, tc := range []fileRow{
		{"read", []string{real + "/data/f.txt"}, false, Allowed, false, "Read(/" + alias + "/data/**)"},
		{"read", []string{real + "/notes/n.md"}, false, Allowed, false, "Read(~/notes/**)"},
		{"read", []string{real + "/other/n.md"}, false, Undecided, false, ""},
		{"write", []string{real + "/state/s.db"}, true, Asks, true, ""},
	} {
		d := Evaluate(rules, Call{Tool: tc.tool, Paths: tc.paths, Write: tc.write}, env)
		if d.Verdict != tc.verdict || d.Forced != tc.forced || d.Rule != tc.rule {
			t.Errorf("%s %v: got %s forced=%v rule=%q; want %s forced=%v rule=%q", tc.tool, tc.paths, d.Verdict, d.Forced, d.Rule, tc.verdict, tc.forced, tc.rule)
		}
	}
}

// TestPathSpecs pins the gitignore-style reading of path specs.
func TestPathSpecs(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		spec string
		kind Kind
		path string
		want bool
	}{
		{"//", Allow, "/etc/shadow", true},
		{"//etc", Allow, "/etc/ssh/sshd_config", true},
		{"//etc/*.conf", Allow, "/etc/a.conf", true},
		{"//etc/*.conf", Allow, "/etc/x/a.conf", false},
		{"//etc/**/*.conf", Allow, "/etc/x/a.conf", true},
		{"./", Allow, "{ws}/a/b", true},
		{".", Allow, "{ws}/a", true},
		{".", Allow, "{root}/x", false},
		{"~", Allow, "{home}/a", true},
		{"~/", Allow, "{home}/a", true},
		{"~/.ssh", Allow, "{home}/.ssh/id_rsa", true},
		{"docs", Allow, "{ws}/docs/a.md", true},
		{"docs", Allow, "{ws}/sub/docs/a.md", true},
		{"docs/", Allow, "{ws}/docs/a/b.md", true},
		{"docs/**", Allow, "{ws}/docs", true},
		{"/docs", Allow, "{ws}/docs/a.md", true},
		{"/docs", Allow, "{ws}/sub/docs/a.md", false},
		{"src/*.go", Allow, "{ws}/src/a.go", true},
		{"src/*.go", Allow, "{ws}/src/x/a.go", false},
		{"src/*.go", Allow, "{ws}/lib/src/a.go", false},
		{"**/*.go", Allow, "{ws}/a/b/c.go", true},
		{"*.key", Allow, "{ws}/k/a.key", true},
		{"*.key", Allow, "{home}/a.key", false},
		{"*.key", Deny, "{home}/a.key", true},
		{"../x/**", Allow, "{root}/x/a.txt", true},
		{"../x/**", Allow, "{root}/y/a.txt", false},
		{"*.{pem,key}", Allow, "{ws}/a.pem", true},
		{"src/\\[id\\]/**", Allow, "{ws}/src/[id]/page.tsx", true},
		{"src/\\[id\\]/**", Allow, "{ws}/src/i/page.tsx", false},
	} {
		got := matchPath(pathPatterns(tc.spec, tc.kind, f.env), f.expand(tc.path))
		if got != tc.want {
			t.Errorf("%s spec %q on %s = %v, want %v (patterns %q)", tc.kind, tc.spec, tc.path, got, tc.want, pathPatterns(tc.spec, tc.kind, f.env))
		}
	}
}
