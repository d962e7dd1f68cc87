package config

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// layered writes the files of a global, a project and an explicit layer
// ("" writes none) and loads them with the project trusted or not.
func layered(t *testing.T, global, project, explicit string, trusted bool) (*Config, Files, error) {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, body string) string {
		if body == "" {
			return ""
		}
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	f := Files{Global: write("global/config.json", global), Project: write("ws/"+ProjectFile, project),
		Explicit: write("explicit.json", explicit), ProjectTrusted: trusted}
	if f.Global == "" {
		f.Global = filepath.Join(dir, "missing.json")
	}
	b := &builder{env: envOf(nil), apis: testAPIs, catFn: defaultCatalogue}
	var files []layerFile
	files = append(files, layerFile{kind: LayerGlobal, path: f.Global, optional: true, applied: true})
	if f.Project != "" {
		files = append(files, layerFile{kind: LayerProject, path: f.Project, applied: trusted})
	}
	if f.Explicit != "" {
		files = append(files, layerFile{kind: LayerExplicit, path: f.Explicit, applied: true})
	}
	c, err := loadLayers(files, b)
	return c, f, err
}

// setting finds the setting at path.
func setting(c *Config, path string) (Setting, bool) {
	i := slices.IndexFunc(c.Settings(), func(s Setting) bool { return s.Path == path })
	if i < 0 {
		return Setting{}, false
	}
	return c.Settings()[i], true
}

func TestLayersMerge(t *testing.T) {
	const global = `{
  "agent": {"thinking": "low", "maxConcurrent": 2},
  "tools": {"approval": "ask"},
  "aliases": {"a": "scripted/echo", "b": "scripted/echo"},
  "mcpServers": {"g": {"command": "g-server", "args": ["1", "2"]}}
}`
	const project = `{
  "agent": {"thinking": "high"},
  "aliases": {"c": "scripted/echo"},
  "mcpServers": {"g": {"args": ["3"]}}
}`
	cases := []struct {
		name              string
		project, explicit string
		trusted           bool
		check             func(t *testing.T, c *Config, f Files)
	}{
		{name: "objects merge, the higher layer wins a key", project: project, trusted: true,
			check: func(t *testing.T, c *Config, f Files) {
				if c.Agent.Thinking != "high" || c.Agent.MaxConcurrent != 2 || c.Tools.Approval != "ask" {
					t.Errorf("agent = %+v, tools = %+v: want high from the project, 2 and ask from the global", c.Agent, c.Tools)
				}
				if len(c.Aliases) != 3 {
					t.Errorf("aliases = %v, want a, b and c", c.Aliases)
				}
			}},
		{name: "lists replace", project: project, trusted: true,
			check: func(t *testing.T, c *Config, f Files) {
				if len(c.MCPServers) != 1 || c.MCPServers[0].Command != "g-server" || !reflect.DeepEqual(c.MCPServers[0].Args, []string{"3"}) {
					t.Errorf("servers = %+v, want g-server with args [3]", c.MCPServers)
				}
			}},
		{name: "sources of each value", project: project, trusted: true,
			check: func(t *testing.T, c *Config, f Files) {
				want := map[string][]string{
					"agent.thinking":      {f.Global, f.Project},
					"agent.maxConcurrent": {f.Global},
					"aliases.c":           {f.Project},
					"mcpServers.g.args":   {f.Global, f.Project},
				}
				for path, sources := range want {
					s, ok := setting(c, path)
					if !ok || !slices.Equal(s.Sources, sources) || s.Source != sources[len(sources)-1] {
						t.Errorf("%s: %+v, want sources %v", path, s, sources)
					}
				}
				if s, _ := setting(c, "agent.thinking"); s.Value != "high" {
					t.Errorf("agent.thinking = %v, want the project's high", s.Value)
				}
			}},
		{name: "--config adds the top layer", project: project, explicit: `{"agent": {"thinking": "medium"}}`, trusted: true,
			check: func(t *testing.T, c *Config, f Files) {
				if c.Agent.Thinking != "medium" || c.Agent.MaxConcurrent != 2 {
					t.Errorf("agent = %+v, want medium from --config over the global's 2", c.Agent)
				}
				if s, _ := setting(c, "agent.thinking"); !slices.Equal(s.Sources, []string{f.Global, f.Project, f.Explicit}) {
					t.Errorf("sources = %v, want all three", s.Sources)
				}
			}},
		{name: "an untrusted project is listed but not applied", project: project, trusted: false,
			check: func(t *testing.T, c *Config, f Files) {
				if c.Agent.Thinking != "low" || len(c.Aliases) != 2 {
					t.Errorf("agent = %+v, aliases = %v: the project applied", c.Agent, c.Aliases)
				}
				if s, _ := setting(c, "agent.thinking"); !slices.Equal(s.Sources, []string{f.Global}) {
					t.Errorf("sources = %v, want the global only", s.Sources)
				}
				if len(c.Layers) != 2 || c.Layers[1].Applied || c.Layers[1].Note != UntrustedNote ||
					!slices.Equal(c.Layers[1].Keys, []string{"agent", "aliases", "mcpServers"}) {
					t.Errorf("layers = %+v", c.Layers)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, f, err := layered(t, global, tc.project, tc.explicit, tc.trusted)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, c, f)
		})
	}
}

// Every kind of mistake names the file that has it, in every layer, even
// an untrusted project file.
func TestLayerErrorsNameTheirFile(t *testing.T) {
	const ok = `{"agent": {"thinking": "low"}}`
	mistakes := []struct{ name, body, want string }{
		{"syntax", "{\n  \"agent\": {\n    \"thinking\": \"low\",\n  }\n}", ":4: invalid JSON"},
		{"type", "{\n  \"agent\": {\n    \"maxConcurrent\": \"two\"\n  }\n}", ":3: agent.maxConcurrent: want a whole number"},
		{"unknown key", "{\n  \"agent\": {\"thinkin\": \"low\"}\n}", `:2: unknown key "agent.thinkin"`},
		{"bad value", "{\n\n  \"budget\": {\"run\": -1}\n}", ":3: budget.run: must not be negative"},
		{"duplicate key", "{\"ui\": {},\n\"ui\": {}}", `:2: duplicate key "ui"`},
	}
	for _, m := range mistakes {
		for _, layer := range []string{LayerGlobal, LayerProject, LayerExplicit} {
			for _, trusted := range []bool{true, false} {
				if layer != LayerProject && !trusted {
					continue
				}
				t.Run(m.name+"/"+layer+"/trusted="+map[bool]string{true: "yes", false: "no"}[trusted], func(t *testing.T) {
					g, p, e := ok, ok, ok
					switch layer {
					case LayerGlobal:
						g = m.body
					case LayerProject:
						p = m.body
					default:
						e = m.body
					}
					_, f, err := layered(t, g, p, e, trusted)
					file := map[string]string{LayerGlobal: f.Global, LayerProject: f.Project, LayerExplicit: f.Explicit}[layer]
					if err == nil || !strings.HasPrefix(err.Error(), file+m.want) {
						t.Errorf("error = %v, want %s%s…", err, file, m.want)
					}
				})
			}
		}
	}
}

// A bad value the merge makes is still named at the file and line of the
// value: the project's reference to an alias only the global defines works,
// and a reference to none names the project's line.
func TestMergedValueErrorsPointAtTheirFile(t *testing.T) {
	global := `{"aliases": {"fast": "scripted/echo"}}`
	if c, _, err := layered(t, global, `{"model": "fast"}`, "", true); err != nil || c.Model != "fast" {
		t.Fatalf("model = %v, %v: want the global's alias to resolve the project's model", c, err)
	}
	_, f, err := layered(t, global, "{\n\"model\": \"nope/none\"}", "", true)
	if err == nil || !strings.HasPrefix(err.Error(), f.Project+":2: model:") {
		t.Errorf("error = %v, want the project's line 2", err)
	}
}

func TestSettingsHideSecrets(t *testing.T) {
	const body = `{
  "providers": {"p": {"api": "openai-chat", "baseURL": "http://127.0.0.1:1/v1",
    "headers": {"Authorization": "Bearer ` + keyLiteral + `"},
    "profiles": [{"id": "p:main", "apiKey": "` + keyLiteral + `"}, {"id": "p:env", "apiKeyEnv": "X"}]}},
  "mcpServers": {"s": {"command": "srv", "env": {"TOKEN": "` + keyLiteral + `", "EMPTY": ""}},
    "r": {"type": "http", "url": "https://example.com/mcp", "oauth": {"clientId": "steer", "clientSecret": "` + keyLiteral + `"}}}
}`
	c, _, err := layered(t, body, "", "", true)
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, s := range c.Settings() {
		text = append(text, s.Path+"="+s.ValueText())
	}
	all := strings.Join(text, "\n")
	for _, secret := range secrets {
		if strings.Contains(all, secret) {
			t.Fatalf("a secret shows:\n%s", all)
		}
	}
	for _, want := range []string{
		"providers.p.headers.Authorization=(set)",
		`providers.p.profiles=[{"apiKey":"(set)","id":"p:main"},{"apiKeyEnv":"X","id":"p:env"}]`,
		"mcpServers.s.env.TOKEN=(set)", "mcpServers.s.env.EMPTY=(unset)",
		"mcpServers.r.oauth.clientSecret=(set)", `mcpServers.r.oauth.clientId="steer"`,
	} {
		if !slices.Contains(text, want) {
			t.Errorf("no %s in\n%s", want, all)
		}
	}
}

func TestFindProject(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(filepath.Join(root, ".steer"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(deep, 0o700); err != nil {
		t.Fatal(err)
	}
	if got := FindProject(deep); got != "" && strings.HasPrefix(got, root) {
		t.Fatalf("FindProject = %q with no file yet", got)
	}
	want := filepath.Join(root, ProjectFile)
	if err := os.WriteFile(want, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{root, deep} {
		if got := FindProject(dir); got != want {
			t.Errorf("FindProject(%s) = %q, want %q", dir, got, want)
		}
	}
}
