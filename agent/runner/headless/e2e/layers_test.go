package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The layered configuration and the workspace trust, driven through the
// built binary: the global file is $XDG_CONFIG_HOME/steer/config.json, the
// project file .steer/config.json in the workspace.

// writeGlobal writes the sandbox's global config file.
func (s *sandbox) writeGlobal(body string) string {
	s.t.Helper()
	var home string
	for _, kv := range s.env {
		if v, ok := strings.CutPrefix(kv, "XDG_CONFIG_HOME="); ok {
			home = v
		}
	}
	path := filepath.Join(mkdir(s.t, home, "steer"), "config.json")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		s.t.Fatal(err)
	}
	return path
}

// writeProject writes the workspace's project config file.
func (s *sandbox) writeProject(body string) string {
	s.t.Helper()
	path := filepath.Join(mkdir(s.t, s.workspace, ".steer"), "config.json")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		s.t.Fatal(err)
	}
	return path
}

// configJSON is `steer config --json`, decoded.
type configJSON struct {
	Layers []struct {
		Kind    string `json:"kind"`
		Path    string `json:"path"`
		Applied bool   `json:"applied"`
	} `json:"layers"`
	Settings []struct {
		Path    string   `json:"path"`
		Value   any      `json:"value"`
		Source  string   `json:"source"`
		Sources []string `json:"sources"`
	} `json:"settings"`
}

func (s *sandbox) configJSON() configJSON {
	s.t.Helper()
	code, out, errOut := s.run(nil, "config", "--json")
	if code != 0 {
		s.t.Fatalf("steer config --json: exit %d: %s", code, errOut)
	}
	var c configJSON
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		s.t.Fatalf("steer config --json: %v\n%s", err, out)
	}
	return c
}

// TestConfigShowsBothSources: a key the global and the trusted project
// config both set has the project's value and both files as sources; the
// global's other keys stay; an API key shows as (set) only.
func TestConfigShowsBothSources(t *testing.T) {
	s := newSandbox(t)
	global := s.writeGlobal(`{"agent": {"thinking": "low", "maxConcurrent": 3},
  "providers": {"corp": {"api": "openai-chat", "baseURL": "https://llm.corp.example/v1",
    "profiles": [{"id": "corp:main", "apiKey": "sk-SECRET-e2e"}]}}}`)
	project := s.writeProject(`{"agent": {"thinking": "high"}}`)
	if code, _, errOut := s.run(nil, "trust"); code != 0 {
		t.Fatalf("steer trust: exit %d: %s", code, errOut)
	}
	c := s.configJSON()
	found := 0
	for _, st := range c.Settings {
		switch st.Path {
		case "agent.thinking":
			found++
			if st.Value != "high" || st.Source != project || !slices.Equal(st.Sources, []string{global, project}) {
				t.Errorf("agent.thinking = %+v, want the project's high from %s over %s", st, project, global)
			}
		case "agent.maxConcurrent":
			found++
			if st.Source != global {
				t.Errorf("agent.maxConcurrent from %s, want the global file", st.Source)
			}
		}
	}
	if found != 2 {
		t.Errorf("settings = %+v", c.Settings)
	}
	_, text, _ := s.run(nil, "config")
	_, js, _ := s.run(nil, "config", "--json")
	for _, out := range []string{text, js} {
		if strings.Contains(out, "SECRET") || !strings.Contains(out, "(set)") {
			t.Errorf("the key is not shown as (set) only:\n%s", out)
		}
	}
}

// TestConfigErrorsNameTheFile: a mistake in the global or the project
// file (trusted or not) names that file and line, for steer config and
// steer run alike.
func TestConfigErrorsNameTheFile(t *testing.T) {
	cases := []struct{ name, global, project, where string }{
		{"global", "{\n  \"agent\": {\"thinkin\": \"low\"}\n}", `{}`, "global"},
		{"project", `{"agent": {"thinking": "low"}}`, "{\n\n  \"agent\": {\"thinking\": 7}\n}", "project"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSandbox(t)
			global, project := s.writeGlobal(tc.global), s.writeProject(tc.project)
			want := map[string]string{"global": global + ":2:", "project": project + ":3:"}[tc.where]
			for _, args := range [][]string{{"config"}, {"run", "hi"}} {
				code, _, errOut := s.run(nil, args...)
				if code != 2 || !strings.Contains(errOut, want) {
					t.Errorf("steer %s: exit %d, stderr %q; want 2 and %s", args[0], code, errOut, want)
				}
			}
		})
	}
}

// TestProjectConfigWaitsForTrust: a cloned repository's project config
// (here tools.approval "never", which refuses a command) does nothing
// before `steer trust`, applies after it, and a change to the file revokes
// the trust until it is given again.
func TestProjectConfigWaitsForTrust(t *testing.T) {
	s := newSandbox(t)
	project := s.writeProject(`{"tools": {"approval": "never"}}`)
	touch := func(name string) (made bool, stderr string) {
		t.Helper()
		_, _, errOut := s.run(nil, "run", `call bash {"command": "touch `+name+`"}`)
		_, err := os.Stat(filepath.Join(s.workspace, name))
		return err == nil, errOut
	}
	const notApplied = "was not applied: this workspace is not trusted"

	made, errOut := touch("before")
	if !made || !strings.Contains(errOut, project+" "+notApplied) || !strings.Contains(errOut, "steer trust") {
		t.Fatalf("before the trust: made=%v, stderr %q; want the command run and the project config said not applied", made, errOut)
	}
	if c := s.configJSON(); len(c.Layers) != 1 || c.Layers[0].Kind != "project" || c.Layers[0].Applied {
		t.Errorf("layers = %+v, want the project's, not applied", c.Layers)
	}
	if _, text, _ := s.run(nil, "config"); !strings.Contains(text, "not applied: this workspace is not trusted") {
		t.Errorf("steer config does not say the project config is not applied:\n%s", text)
	}

	code, out, errOut := s.run(nil, "trust")
	if code != 0 || !strings.Contains(out, "project config "+project+", setting: tools") || !strings.Contains(out, "trusted") {
		t.Fatalf("steer trust: exit %d, %q, %q", code, out, errOut)
	}
	if made, errOut := touch("trusted"); made || strings.Contains(errOut, notApplied) {
		t.Errorf("after the trust: made=%v, stderr %q; want the command refused by the project's approval", made, errOut)
	}

	if err := os.WriteFile(project, []byte(`{"tools": {"approval": "never"}, "agent": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if made, errOut := touch("changed"); !made || !strings.Contains(errOut, notApplied) {
		t.Errorf("after a change: made=%v, stderr %q; want the trust revoked", made, errOut)
	}
	if code, _, _ := s.run(nil, "run", "--trust-project", `call bash {"command": "touch once"}`); code != 0 && code != 1 {
		t.Errorf("--trust-project run: exit %d", code)
	}
	if _, err := os.Stat(filepath.Join(s.workspace, "once")); err == nil {
		t.Error("--trust-project did not apply the project config")
	}

	s.run(nil, "trust")
	if code, out, _ := s.run(nil, "trust", "--revoke"); code != 0 || !strings.Contains(out, "trust revoked") {
		t.Errorf("steer trust --revoke: exit %d, %q", code, out)
	}
	if code, out, _ := s.run(nil, "trust", "--revoke"); code != 0 || !strings.Contains(out, "not trusted: it was not") {
		t.Errorf("steer trust --revoke again: exit %d, %q", code, out)
	}
	if made, _ := touch("revoked"); !made {
		t.Error("after --revoke the project config still applies")
	}
}
