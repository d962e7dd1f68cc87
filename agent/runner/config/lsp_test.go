package config

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent/lsp"
)

func TestLSPServers(t *testing.T) {
	c, err := load(writeConfig(t, `{"lsp": {
		"go": {"command": "gopls", "args": ["-remote=auto"], "filetypes": ["go"], "env": {"GOFLAGS": "-tags=dev"},
		       "enabled": true, "initializationOptions": {"staticcheck": true, "analyses": {"unusedparams": false}, "n": [1, 2.5, null, "s"]}},
		"python": {"enabled": false},
		"zig": {"command": "zls", "filetypes": ["zig", "zon"]}
	}}`), envOf(nil), defaultCatalogue)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.LSP) != 3 {
		t.Fatalf("servers %+v", c.LSP)
	}
	var opts any
	if err := json.Unmarshal(c.LSP[0].InitializationOptions, &opts); err != nil {
		t.Fatal(err)
	}
	if want := map[string]any{"staticcheck": true, "analyses": map[string]any{"unusedparams": false}, "n": []any{1.0, 2.5, nil, "s"}}; !reflect.DeepEqual(opts, want) {
		t.Errorf("initializationOptions %v, want %v", opts, want)
	}
	c.LSP[0].InitializationOptions = nil
	want := []lsp.Config{
		{Language: "go", Command: "gopls", Args: []string{"-remote=auto"}, Filetypes: []string{"go"}, Env: map[string]string{"GOFLAGS": "-tags=dev"}},
		{Language: "python", Disabled: true},
		{Language: "zig", Command: "zls", Filetypes: []string{"zig", "zon"}},
	}
	if !reflect.DeepEqual(c.LSP, want) {
		t.Errorf("servers:\n got %+v\nwant %+v", c.LSP, want)
	}
}

func TestLSPServersRefused(t *testing.T) {
	for _, c := range []struct{ name, body, want string }{
		{"unknown key", `{"lsp": {"go": {"comand": "gopls"}}}`, `unknown key "lsp.go.comand"`},
		{"a new language without a command", `{"lsp": {"zig": {"filetypes": ["zig"]}}}`, `lsp.zig: needs a command`},
		{"a new language without filetypes", `{"lsp": {"zig": {"command": "zls"}}}`, `lsp.zig: needs "filetypes"`},
		{"a dotted filetype", `{"lsp": {"go": {"filetypes": [".go"]}}}`, `filetype ".go": want a bare extension`},
		{"args not strings", `{"lsp": {"go": {"args": [1]}}}`, `lsp.go.args[0]: want a string`},
		{"enabled not a bool", `{"lsp": {"go": {"enabled": "no"}}}`, `lsp.go.enabled: want true or false`},
		{"one filetype, two servers", `{"lsp": {"go": {}, "other": {"command": "x", "filetypes": ["go"]}}}`,
			`lsp.other.filetypes: "go" is also lsp.go's`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := load(writeConfig(t, c.body), envOf(nil), defaultCatalogue)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}
