package config

import (
	"encoding/json"

	"github.com/steer-tui/steer/agent/lsp"
)

// The language servers whose diagnostics write and edit report, by
// language; defaults (gopls, typescript-language-server, pyright,
// rust-analyzer) are detected on PATH for the languages the file leaves
// out, and "enabled": false turns one off:
//
//	"lsp": {
//	  "go": {"command": "gopls", "args": [], "filetypes": ["go"], "env": {"GOFLAGS": "-tags=dev"},
//	         "enabled": true, "initializationOptions": {"staticcheck": true}},
//	  "python": {"enabled": false}
//	}
type fileLSPServer struct {
	Command               string            `json:"command"`
	Args                  []string          `json:"args"`
	Filetypes             []string          `json:"filetypes"`
	Env                   map[string]string `json:"env"`
	Enabled               *bool             `json:"enabled"`
	InitializationOptions json.RawMessage   `json:"initializationOptions"`
}

// lsp checks and stores lsp, in file order: each server on its own, then
// that no filetype has two enabled servers.
func (b *builder) lsp(c *Config, fc *fileConfig, root *node) error {
	claimed := map[string]string{}
	for _, f := range root.get("lsp").keysOrNil() {
		fs := fc.LSP[f.name]
		path := joinPath("lsp", f.name)
		lc := lsp.Config{Language: f.name, Command: fs.Command, Args: fs.Args, Filetypes: fs.Filetypes, Env: fs.Env,
			Disabled: fs.Enabled != nil && !*fs.Enabled, InitializationOptions: fs.InitializationOptions}
		if err := lc.Check(); err != nil {
			return b.errAt(path, "%v", err)
		}
		for _, ft := range lc.WithDefaults().Filetypes {
			if other, taken := claimed[ft]; taken && !lc.Disabled {
				return b.errAt(path+".filetypes", "%q is also lsp.%s's: one server per filetype", ft, other)
			}
			if !lc.Disabled {
				claimed[ft] = f.name
			}
		}
		c.LSP = append(c.LSP, lc)
	}
	return nil
}
