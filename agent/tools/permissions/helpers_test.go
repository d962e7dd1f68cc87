package permissions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture is a workspace on disk: ws with src/, .git/ and link -> /etc, a
// home beside it, and .git protected.
type fixture struct {
	ws, home string
	env      Env
}

func newFixture(t testing.TB) fixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, home := filepath.Join(root, "proj"), filepath.Join(root, "home")
	for _, d := range []string{filepath.Join(ws, "src"), filepath.Join(ws, ".git"), filepath.Join(home, ".ssh"), filepath.Join(root, "x"), filepath.Join(root, "y")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/etc", filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	return fixture{ws: ws, home: home, env: Env{Workspace: ws, Home: home, Protected: []string{filepath.Join(ws, ".git")}}}
}

// expand replaces {ws}, {home} and {root} in s with the fixture's paths.
func (f fixture) expand(s string) string {
	return strings.NewReplacer("{ws}", f.ws, "{home}", f.home, "{root}", filepath.Dir(f.ws)).Replace(s)
}

// ruleSet is rules as written, by list.
type ruleSet struct{ allow, ask, deny []string }

func (rs ruleSet) parse(t testing.TB) []Rule {
	t.Helper()
	var out []Rule
	for _, l := range []struct {
		kind  Kind
		texts []string
	}{{Allow, rs.allow}, {Ask, rs.ask}, {Deny, rs.deny}} {
		for _, text := range l.texts {
			r, err := Parse(text, l.kind)
			if err != nil {
				t.Fatalf("Parse(%q, %s): %v", text, l.kind, err)
			}
			r.Source = "test"
			out = append(out, r)
		}
	}
	return out
}

// row is one command and what Evaluate must say about it.
type row struct {
	cmd     string
	verdict Verdict
	forced  bool
	rule    string // Decision.Rule
}

// runRows evaluates every row's command under rules and compares.
func runRows(t *testing.T, rules []Rule, f fixture, rows []row) {
	t.Helper()
	seen := map[string]bool{}
	for _, r := range rows {
		cmd := f.expand(r.cmd)
		if seen[cmd] {
			t.Errorf("duplicate row %q", r.cmd)
		}
		seen[cmd] = true
		d := Evaluate(rules, Call{Tool: "bash", Command: cmd}, f.env)
		if d.Verdict != r.verdict || d.Forced != r.forced || d.Rule != r.rule {
			t.Errorf("%q: got %s forced=%v rule=%q (%s); want %s forced=%v rule=%q\nparts: %s",
				r.cmd, d.Verdict, d.Forced, d.Rule, d.Reason, r.verdict, r.forced, r.rule, partsString(d.Parts))
		}
		checkDecision(t, cmd, d)
	}
}

// checkDecision checks what must hold of every decision: an ask never says
// deny, a denial names its rule, every decision has a reason on one line.
func checkDecision(t *testing.T, cmd string, d Decision) {
	t.Helper()
	lower := strings.ToLower(d.Reason)
	switch {
	case d.Reason == "" || strings.Contains(d.Reason, "\n"):
		t.Errorf("%q: reason %q is not one line", cmd, d.Reason)
	case d.Verdict == Asks && strings.Contains(lower, "deny") && !strings.Contains(strings.ToLower(cmd), "deny"):
		t.Errorf("%q: an ask's reason says deny: %q", cmd, d.Reason)
	case d.Verdict == Denied && d.Rule == "":
		t.Errorf("%q: a denial without its rule", cmd)
	case d.Forced && d.Verdict != Asks:
		t.Errorf("%q: forced but %s", cmd, d.Verdict)
	}
}

func partsString(parts []Part) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString("\n  " + p.Text + " → " + string(p.Verdict))
		if p.Rule != "" {
			b.WriteString(" " + p.Rule)
		}
		if p.Reason != "" {
			b.WriteString(" (" + p.Reason + ")")
		}
		if p.Wrapper {
			b.WriteString(" [wrapper]")
		}
	}
	return b.String()
}

// Row constructors, so that tables read as what they expect.
func allowed(cmd, rule string) row { return row{cmd: cmd, verdict: Allowed, rule: rule} }
func undecided(cmd string) row     { return row{cmd: cmd, verdict: Undecided} }
func denied(cmd, rule string) row  { return row{cmd: cmd, verdict: Denied, rule: rule} }
func asked(cmd, rule string) row   { return row{cmd: cmd, verdict: Asks, rule: rule} }
func forced(cmd string) row        { return row{cmd: cmd, verdict: Asks, forced: true} }
