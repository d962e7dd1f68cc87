package agent_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

const module = "github.com/steer-tui/steer"

// layerRule forbids the packages matching from to import any package
// matching a prefix in banned (SPEC §1: imports point downwards).
type layerRule struct {
	name   string
	from   func(pkg string) bool
	banned []string
}

func under(prefixes ...string) func(string) bool {
	return func(pkg string) bool {
		for _, p := range prefixes {
			if pkg == module+"/"+p || strings.HasPrefix(pkg, module+"/"+p+"/") {
				return true
			}
		}
		return false
	}
}

var providerPackages = []string{"agent/llm/openai", "agent/llm/anthropic", "agent/llm/scripted", "agent/llm/llmhttp"}

var layerRules = []layerRule{
	{"the kernel imports nothing of ours", func(p string) bool { return p == module+"/agent" }, []string{""}},
	{"lanes import nothing of ours", under("lanes"), []string{""}},
	{"failover and contextguard import at most the kernel", under("failover", "contextguard"),
		[]string{"agent/", "lanes", "failover", "contextguard", "persistence", "tui", "assets"}},
	{"the runner reaches no front end or provider", under("agent/runner"),
		append([]string{"agent/rpc", "tui"}, providerPackages...)},
	{"headless reads the state directory through the runner's StateView, never the store", under("agent/runner/headless"),
		[]string{"persistence"}},
	{"the TUI talks to the runtime only through the runner", under("tui"),
		[]string{"persistence", "agent/llm", "agent/tools", "agent/rpc", "agent/eventjson", "agent/mcp", "failover", "lanes", "contextguard"}},
	{"the MCP client reaches no orchestration, front end or provider", under("agent/mcp"),
		[]string{"agent/runner", "agent/rpc", "agent/llm", "agent/tools", "tui", "persistence", "lanes", "failover", "contextguard"}},
	{"providers reach no orchestration or front end", under("agent/llm"),
		[]string{"agent/runner", "agent/rpc", "agent/tools", "tui", "persistence", "lanes", "failover", "contextguard"}},
	{"tools reach no orchestration or front end", under("agent/tools"),
		[]string{"agent/runner", "agent/rpc", "agent/llm", "tui", "persistence"}},
	{"persistence stores, it does not run", under("persistence"),
		[]string{"agent/runner", "agent/rpc", "agent/llm", "agent/tools", "tui"}},
	{"only main links the network providers", func(p string) bool { return p != module },
		[]string{"agent/llm/openai", "agent/llm/anthropic"}},
}

// violations words every import of ours in imports that a rule forbids
// pkg, one line each naming the forbidden import path and the rule.
func violations(pkg string, imports []string) []string {
	var out []string
	for _, imp := range imports {
		if imp == pkg || imp != module && !strings.HasPrefix(imp, module+"/") {
			continue
		}
		for _, r := range layerRules {
			if r.from(pkg) && bans(r.banned, imp) {
				out = append(out, fmt.Sprintf("%s imports %s, which is forbidden: %s", pkg, imp, r.name))
			}
		}
	}
	return out
}

// bans reports whether imp (a package of ours) is one of the banned
// prefixes; "" bans every package of ours.
func bans(banned []string, imp string) bool {
	rel := strings.TrimPrefix(imp, module+"/")
	for _, b := range banned {
		switch {
		case b == "":
			return true
		case strings.HasSuffix(b, "/") && strings.HasPrefix(rel, b):
			return true
		case rel == b || strings.HasPrefix(rel, b+"/"):
			return true
		}
	}
	return false
}

func TestImportsPointDownwards(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	for {
		var pkg struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&pkg); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		seen++
		for _, v := range violations(pkg.ImportPath, pkg.Imports) {
			t.Error(v)
		}
	}
	if seen < 10 {
		t.Fatalf("go list listed %d packages; is the test run inside the module?", seen)
	}
}

func TestLayerRulesCatchUpwardImports(t *testing.T) {
	cases := []struct {
		from, imp string
		want      bool
	}{
		{"agent", "agent/tools", true},
		{"agent/runner/headless", "agent/rpc", true},
		{"agent/runner/config", "agent/llm/scripted", true},
		{"agent/runner", "persistence", false},
		{"agent/runner/headless", "persistence", true},
		{"agent/runner/headless", "persistence/persisttest", true},
		{"agent/runner/headless/e2e", "persistence", true},
		{"agent/runner/headless", "agent/runner", false},
		{"tui/chat", "agent/tools", true},
		{"tui", "agent/runner", false},
		{"agent/rpc", "agent/eventjson", false},
		{"agent/runner/headless", "agent/eventjson", false},
		{"failover", "agent", false},
		{"failover", "agent/tools", true},
		{"agent/rpc", "agent/llm/openai", true},
		{"agent/llm/scripted", "assets", false},
	}
	for _, tc := range cases {
		from, imp := module+"/"+tc.from, module+"/"+tc.imp
		got := false
		for _, r := range layerRules {
			got = got || r.from(from) && bans(r.banned, imp)
		}
		if got != tc.want {
			t.Errorf("%s → %s: banned = %v, want %v", tc.from, tc.imp, got, tc.want)
		}
	}
}

// TestLayerViolationsNameTheForbiddenImport: a failure of
// TestImportsPointDownwards names the package, the forbidden import path
// and the rule, for the TUI's bans and headless's alike; an allowed import
// words nothing.
func TestLayerViolationsNameTheForbiddenImport(t *testing.T) {
	cases := []struct {
		from, imp string
		rule      string // "" when the import is allowed
	}{
		{"tui", "failover", "the TUI talks to the runtime only through the runner"},
		{"tui/chat", "lanes", "the TUI talks to the runtime only through the runner"},
		{"tui/inspect", "contextguard/engines", "the TUI talks to the runtime only through the runner"},
		{"agent/runner/headless", "persistence", "headless reads the state directory through the runner's StateView, never the store"},
		{"agent/runner/headless", "agent/runner", ""},
		{"tui", "agent/runner", ""},
	}
	for _, tc := range cases {
		from, imp := module+"/"+tc.from, module+"/"+tc.imp
		got := violations(from, []string{imp})
		if tc.rule == "" {
			if len(got) != 0 {
				t.Errorf("%s → %s: %q, want no violation", tc.from, tc.imp, got)
			}
			continue
		}
		want := from + " imports " + imp + ", which is forbidden: " + tc.rule
		if !reflect.DeepEqual(got, []string{want}) {
			t.Errorf("%s → %s:\n got %q\nwant %q", tc.from, tc.imp, got, want)
		}
	}
}
