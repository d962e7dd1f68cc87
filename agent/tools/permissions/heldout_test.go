package permissions_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/tools/permissions"
)

// The held-out check of issue 31's first judged item: commands of every
// kind the issue names, under five rule sets a Claude Code or Codex user
// has, each with the verdict the text implies. The expectations
// were written from the issue and the package's exported API alone, not
// from the implementation; the other tables in this package are the
// implementer's own.

// heldoutSet is one rule set with the commands judged under it.
type heldoutSet struct {
	name             string
	allow, ask, deny []string
	cases            []heldoutCase
}

// heldoutCase is one command and its expected verdict:
//
//	"allow"        it runs without asking
//	"deny RULE"    it is refused by RULE as written
//	"ask"          it needs approval (Asks or Undecided: ask mode asks)
//	"ask RULE"     it asks because the ask rule RULE says so
//	"forced"       it needs approval whatever the mode: the command itself
//	               forces the ask (Decision.Forced; auto refuses it)
//
// In cmd, {ws} is the workspace and {home} the home directory.
type heldoutCase struct {
	cmd, want string
}

// heldoutSets are the five rule sets, each in a file heldout_*_test.go,
// and the cases found while judging them (heldout_found_test.go).
var heldoutSets = []heldoutSet{nodeSet, gitSet, strictSet, globSet, steerSet, foundSet}

func TestHeldOut(t *testing.T) {
	env := heldoutEnv(t)
	total := 0
	for _, set := range heldoutSets {
		rules := heldoutRules(t, set)
		for _, tc := range set.cases {
			total++
			cmd := strings.NewReplacer("{ws}", env.Workspace, "{home}", env.Home).Replace(tc.cmd)
			d := permissions.Evaluate(rules, permissions.Call{Tool: "bash", Command: cmd}, env)
			if msg := heldoutMismatch(tc.want, d); msg != "" {
				t.Errorf("%s: %q: want %s, got %s, %s (rule %q, forced %v, reason %q)",
					set.name, tc.cmd, tc.want, d.Verdict, msg, d.Rule, d.Forced, d.Reason)
			}
		}
	}
	if total < 350 {
		t.Errorf("%d held-out commands, want at least 350", total)
	}
}

// heldoutMismatch says how d fails want, "" when it matches.
func heldoutMismatch(want string, d permissions.Decision) string {
	kind, rule, _ := strings.Cut(want, " ")
	needsApproval := d.Verdict == permissions.Asks || d.Verdict == permissions.Undecided
	if needsApproval && mentionsDeny(d.Reason) {
		return "an ask whose reason says deny"
	}
	// "needs approval" names the rule that would allow the call, unless an
	// ask rule decided, which no allow rule overrides.
	if needsApproval && !(d.Verdict == permissions.Asks && d.Rule != "") && len(d.Suggest) == 0 {
		return "an ask that names no rule to allow it"
	}
	switch kind {
	case "allow":
		if d.Verdict != permissions.Allowed || d.Forced {
			return "not allowed"
		}
	case "deny":
		if d.Verdict != permissions.Denied || d.Rule != rule {
			return "not denied by " + rule
		}
	case "ask":
		if !needsApproval {
			return "does not need approval"
		}
		if rule != "" && (d.Verdict != permissions.Asks || d.Rule != rule || d.Forced) {
			return "not asked by " + rule
		}
	case "forced":
		if !needsApproval || !d.Forced {
			return "not a forced ask"
		}
	default:
		return "unknown expectation " + want
	}
	return ""
}

func mentionsDeny(s string) bool {
	return strings.Contains(strings.ToLower(s), "deny") || strings.Contains(strings.ToLower(s), "denied")
}

func heldoutRules(t *testing.T, set heldoutSet) []permissions.Rule {
	t.Helper()
	var rules []permissions.Rule
	for _, list := range []struct {
		kind  permissions.Kind
		texts []string
	}{{permissions.Allow, set.allow}, {permissions.Ask, set.ask}, {permissions.Deny, set.deny}} {
		for _, text := range list.texts {
			r, err := permissions.Parse(text, list.kind)
			if err != nil {
				t.Fatalf("%s: %s: %v", set.name, text, err)
			}
			r.Source = "heldout/" + set.name
			rules = append(rules, r)
		}
	}
	return rules
}

// heldoutEnv is a workspace with a .git (protected), a sub directory, a
// web directory and a symbolic link "link" to a directory outside it; the
// home directory is elsewhere.
func heldoutEnv(t *testing.T) permissions.Env {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, home, outside := filepath.Join(root, "ws"), filepath.Join(root, "home"), filepath.Join(root, "outside")
	for _, dir := range []string{filepath.Join(ws, ".git", "hooks"), filepath.Join(ws, "sub"), filepath.Join(ws, "web"), home, outside} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	return permissions.Env{Workspace: ws, Home: home, Protected: []string{filepath.Join(ws, ".git")}}
}
