package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Permission rules through the binary (issue 31, "How it is judged"): a
// held-out sample of commands of every kind, called with `call bash` under
// `steer run --approve ask` (nobody answers: what would ask is refused
// naming the rule that would allow it) and under --approve auto.

// permRules is a config file's "permissions".
type permRules struct {
	Allow []string `json:"allow,omitempty"`
	Ask   []string `json:"ask,omitempty"`
	Deny  []string `json:"deny,omitempty"`
}

// permCase is one command and what the binary must do with it:
//
//	"ran"          it ran: the file made exists
//	"deny RULE"    refused, the result saying "denied by rule RULE"
//	"ask"          refused, the result saying "needs approval" and naming
//	               a rule, never "deny"; nothing of it ran
//	"ask RULE"     the same, naming RULE
//
// Every command that runs makes the file "made" in the workspace, so a
// refused one is seen not to have run.
type permCase struct {
	cmd, want string
}

// permSetA is a developer's prefix rules with rm and curl denied.
var permSetA = permRules{
	Allow: []string{
		"Bash(touch:*)", "Bash(ls:*)", "Bash(echo:*)", "Bash(mkdir:*)", "Bash(cd:*)", "Bash(cat:*)",
		"Bash(sh -c:*)", "Bash(timeout:*)", "Bash(find:*)", "Bash(xargs:*)", "Bash(git status)",
	},
	Ask:  []string{"Bash(git push:*)"},
	Deny: []string{"Bash(rm:*)", "Bash(curl:*)"},
}

var permCasesA = []permCase{
	// plain, compound, wrapped, quoted, redirected inside, heredoc, loop, function, comment
	{"touch made", "ran"},
	{"ls && touch made", "ran"},
	{"mkdir -p d && (cd d && touch ../made)", "ran"},
	{"'touch' \"made\"", "ran"},
	{"echo $((1 + 2)) > made", "ran"},
	{"cat <<EOF > made\nhi\nEOF", "ran"},
	{"for f in made; do touch \"$f\"; done", "ran"},
	{"touch made # && rm -rf x", "ran"},
	{"sh -c 'touch made'", "ran"},
	{"timeout 5 touch made", "ran"},
	{"echo made | xargs touch", "ran"},
	{`find . -maxdepth 0 -exec touch made \;`, "ran"},
	{"touch made 2>/dev/null", "ran"},
	// a denied part anywhere refuses the whole command
	{"touch made && rm -rf x", "deny Bash(rm:*)"},
	{"touch made; echo $(rm x)", "deny Bash(rm:*)"},
	{"touch made; find . -exec rm {} +", "deny Bash(rm:*)"},
	{"touch made; bash -c 'rm x'", "deny Bash(rm:*)"},
	{"git status; curl -s http://127.0.0.1:9 | sh; touch made", "deny Bash(curl:*)"},
	{"touch made; timeout 5 rm x", "deny Bash(rm:*)"},
	{"touch made; 'r''m' x", "deny Bash(rm:*)"},
	{"touch made; /bin/rm x", "deny Bash(rm:*)"},
	{"touch made; g() { rm x; }", "deny Bash(rm:*)"},
	// no rule, an ask rule, or what the text cannot say
	{"touch made | wc -l", "ask"},
	{"f() { touch made; }; f", "ask"},
	{"touch made; git push", "ask Bash(git push:*)"},
	{"touch made > ../outside.txt", "ask"},
	{"touch made > .git/x", "ask"},
	{"touch made; echo $(date)", "ask"},
	{"CMD=touch; $CMD made", "ask"},
	{"python3 <<EOF\nopen('made', 'w')\nEOF", "ask"},
	{"ｒｍ x; touch made", "ask"},
	{`eval "touch made"`, "ask"},
	{"touch made &&", "ask"},
}

// permSetB is exact rules and globs, written partly with steer's names.
var permSetB = permRules{
	Allow: []string{"Bash(touch made)", "Bash(echo hello)", "bash(mkdir:*)", "Bash(git * --dry-run)"},
	Ask:   []string{"Bash(git commit *)"},
	Deny:  []string{"Bash(rm *)", "Bash(git push *)"},
}

var permCasesB = []permCase{
	{"touch made", "ran"},
	{"mkdir -p d && touch made", "ran"},
	{"touch made; echo hello > d.txt", "ran"},
	{"touch made other", "ask"},
	{"touch made; echo hello world", "ask"},
	{"touch made; git commit -m x", "ask Bash(git commit *)"},
	{"touch made; xargs rm < /dev/null", "deny Bash(rm *)"},
	{"touch made; sudo {rm,-rf,x}", "deny Bash(rm *)"},
	{"touch made; git push --dry-run", "deny Bash(git push *)"},
}

func TestPermissionRulesThroughTheBinary(t *testing.T) {
	slow(t)
	for _, set := range []struct {
		name  string
		rules permRules
		cases []permCase
	}{{"prefix rules", permSetA, permCasesA}, {"exact and glob rules", permSetB, permCasesB}} {
		cfg := permConfig(t, set.rules)
		for _, tc := range set.cases {
			t.Run(set.name+"/"+tc.cmd, func(t *testing.T) {
				t.Parallel()
				s := newSandbox(t)
				mkdir(t, s.workspace, ".git")
				r := callTool(t, s, []string{"--config", cfg, "--approve", "ask"}, "bash", map[string]any{"command": tc.cmd})
				checkPermRun(t, s, tc.want, r)
			})
		}
	}
}

// TestPermissionDenyInAutoMode: --approve auto runs what no rule covers,
// but a denied part, or a part that asks by itself, refuses the whole
// command before any of it runs.
func TestPermissionDenyInAutoMode(t *testing.T) {
	slow(t)
	cfg := permConfig(t, permRules{Deny: []string{"Bash(rm:*)"}})
	for _, tc := range []permCase{
		{"touch made && rm -f made2", "deny Bash(rm:*)"},
		{"touch made; echo $(date)", "refused"},
		{"touch made", "ran"},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			t.Parallel()
			s := newSandbox(t)
			r := callTool(t, s, []string{"--config", cfg, "--approve", "auto"}, "bash", map[string]any{"command": tc.cmd})
			if tc.want == "refused" {
				if made := fileExists(filepath.Join(s.workspace, "made")); made || !r.isError {
					t.Fatalf("auto ran a command that asks by itself: made %v, error %v, result %q", made, r.isError, r.result)
				}
				return
			}
			checkPermRun(t, s, tc.want, r)
		})
	}
}

// checkPermRun checks what one call did against want (see permCase).
func checkPermRun(t *testing.T, s *sandbox, want string, r toolRun) {
	t.Helper()
	made := fileExists(filepath.Join(s.workspace, "made"))
	kind, rule, _ := strings.Cut(want, " ")
	if kind == "ran" {
		if r.isError || !made {
			t.Fatalf("not run: error %v, made %v, result %q", r.isError, made, r.result)
		}
		return
	}
	if made || !r.isError {
		t.Fatalf("refused command ran: made %v, error %v, result %q", made, r.isError, r.result)
	}
	switch kind {
	case "deny":
		if !strings.Contains(r.result, "denied by rule "+rule) {
			t.Fatalf("result %q does not say denied by rule %s", r.result, rule)
		}
	case "ask":
		lower := strings.ToLower(r.result)
		switch {
		case !strings.Contains(r.result, "needs approval"):
			t.Fatalf("result %q does not say needs approval", r.result)
		case strings.Contains(lower, "deny") || strings.Contains(lower, "denied"):
			t.Fatalf("result %q of a call that asks speaks of denying", r.result)
		case rule != "" && !strings.Contains(r.result, rule):
			t.Fatalf("result %q does not name %s", r.result, rule)
		case !strings.Contains(lower, "bash("):
			t.Fatalf("result %q names no rule that would allow it", r.result)
		}
	default:
		t.Fatalf("unknown expectation %q", want)
	}
}

// permConfig writes a config file holding rules.
func permConfig(t *testing.T, rules permRules) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"permissions": rules})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "permissions.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
