package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// TestPermissionsAddUpAcrossLayers: every applied layer's rules count,
// lowest layer first, each with its file and line; an untrusted project's
// rules do not apply but a bad one is still named.
func TestPermissionsAddUpAcrossLayers(t *testing.T) {
	const global = `{"permissions": {"allow": ["Bash(ls:*)"],
  "deny": ["Bash(rm:*)"]}}`
	const project = `{"permissions": {"allow": ["Read(./docs/**)"]}}`
	c, f, err := layered(t, global, project, "", true)
	if err != nil {
		t.Fatal(err)
	}
	want := []PermissionRule{
		{Text: "Bash(ls:*)", Kind: RuleAllow, Source: f.Global, Line: 1},
		{Text: "Bash(rm:*)", Kind: RuleDeny, Source: f.Global, Line: 2},
		{Text: "Read(./docs/**)", Kind: RuleAllow, Source: f.Project, Line: 1},
	}
	if !reflect.DeepEqual(c.Permissions, want) {
		t.Errorf("rules = %+v, want %+v", c.Permissions, want)
	}
	c, _, err = layered(t, global, project, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Permissions) != 2 {
		t.Errorf("an untrusted project's rules applied: %+v", c.Permissions)
	}
	_, _, err = layered(t, global, `{"permissions": {
  "ask": ["Bash(ls"]}}`, "", false)
	if err == nil || !strings.Contains(err.Error(), "config.json:2: permissions.ask[0]:") {
		t.Errorf("a bad rule of an untrusted project: err = %v, want its file, line and path", err)
	}
}

func TestSandboxSettings(t *testing.T) {
	home, _ := os.UserHomeDir()
	for _, tc := range []struct {
		name, file string
		want       SandboxSettings
		err        string
	}{
		{"default", `{}`, SandboxSettings{Mode: SandboxOff, Network: NetworkAllow}, ""},
		{"workspace-write", `{"tools": {"sandbox": {"mode": "workspace-write", "network": "deny", "writable": ["~/.cache", "/opt/x/"]}}}`,
			SandboxSettings{Mode: SandboxWorkspaceWrite, Network: NetworkDeny, Writable: []string{filepath.Join(home, ".cache"), "/opt/x"}}, ""},
		{"bad mode", `{"tools": {"sandbox": {"mode": "strict"}}}`, SandboxSettings{}, `tools.sandbox.mode: unknown sandbox mode "strict"`},
		{"bad network", `{"tools": {"sandbox": {"mode": "read-only", "network": "off"}}}`, SandboxSettings{}, `tools.sandbox.network: unknown network setting "off"`},
		{"relative writable", `{"tools": {"sandbox": {"mode": "read-only", "writable": ["cache"]}}}`, SandboxSettings{}, `tools.sandbox.writable[0]: want an absolute path`},
		{"network without a sandbox", `{"tools": {"sandbox": {"network": "deny"}}}`, SandboxSettings{}, `tools.sandbox: network and writable need a sandbox`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, err := layered(t, "", "", tc.file, false)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Tools.Sandbox, tc.want) {
				t.Errorf("sandbox = %+v, want %+v", c.Tools.Sandbox, tc.want)
			}
		})
	}
}

// TestAddRuleKeepsTheFile: a rule lands in its list, the file keeps its
// other keys in their order and stays loadable, a rule is not added twice,
// and RemoveRule takes it out again.
func TestAddRuleKeepsTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	const before = `{"model": "scripted/echo", "tools": {"approval": "ask"}, "permissions": {"deny": ["Bash(rm:*)"]}}`
	if err := os.WriteFile(path, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := AddRule(path, RuleAllow, "Bash(git status)"); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(path)
	const want = `{
  "model": "scripted/echo",
  "tools": {
    "approval": "ask"
  },
  "permissions": {
    "deny": [
      "Bash(rm:*)"
    ],
    "allow": [
      "Bash(git status)"
    ]
  }
}
`
	if string(data) != want {
		t.Errorf("file =\n%s\nwant\n%s", data, want)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want the file's 0600 kept", st.Mode().Perm())
	}
	if err := RemoveRule(path, RuleDeny, "Bash(rm:*)"); err != nil {
		t.Fatal(err)
	}
	if err := RemoveRule(path, RuleDeny, "Bash(rm:*)"); err == nil || !strings.Contains(err.Error(), `has no rule "Bash(rm:*)"`) {
		t.Errorf("a second removal: err = %v", err)
	}
	for _, bad := range []struct{ kind, rule, err string }{
		{RuleAllow, "Bash(ls", ""}, {"maybe", "Bash(ls)", `unknown rule list "maybe"`},
	} {
		if err := AddRule(path, bad.kind, bad.rule); err == nil || !strings.Contains(err.Error(), bad.err) {
			t.Errorf("AddRule(%s, %s): err = %v, want %q", bad.kind, bad.rule, err, bad.err)
		}
	}
}

// TestAddRuleConcurrently: processes adding rules at once lose none.
func TestAddRuleConcurrently(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "config.json")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := AddRule(path, RuleAllow, "Bash(tool"+string(rune('a'+i))+":*)"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	root, err := parse(path, mustRead(t, path))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(root.get("permissions").get("allow").elems); n != 8 {
		t.Errorf("%d rules saved, want 8", n)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
