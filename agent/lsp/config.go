package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Config is one language server, as the config's "lsp" object declares it
// under its language's name, or as Resolve detects it.
type Config struct {
	// Language names the server (the key in the config: "go").
	Language string
	// Command and Args start the server; it speaks LSP on stdin/stdout.
	Command string
	Args    []string
	// Filetypes are the file-name extensions, without the dot, whose files
	// the server is given ("go", "tsx").
	Filetypes []string
	// Env is added to the environment the server inherits.
	Env map[string]string
	// Disabled is "enabled": false: the server never starts, and a default
	// of the same language is not detected.
	Disabled bool
	// InitializationOptions are sent as initialize's initializationOptions
	// (nil: none).
	InitializationOptions json.RawMessage
	// Detected marks a default found on PATH rather than configured.
	Detected bool
}

// Defaults are the servers Resolve looks for on PATH when the config
// declares none of their language or filetypes.
var Defaults = []Config{
	{Language: "go", Command: "gopls", Filetypes: []string{"go"}},
	{Language: "typescript", Command: "typescript-language-server", Args: []string{"--stdio"},
		Filetypes: []string{"ts", "tsx", "js", "jsx", "mjs", "cjs"}},
	{Language: "python", Command: "pyright-langserver", Args: []string{"--stdio"}, Filetypes: []string{"py"}},
	{Language: "rust", Command: "rust-analyzer", Filetypes: []string{"rs"}},
}

// defaultOf is the default server of language, if there is one.
func defaultOf(language string) (Config, bool) {
	i := slices.IndexFunc(Defaults, func(d Config) bool { return d.Language == language })
	if i < 0 {
		return Config{}, false
	}
	return Defaults[i], true
}

// Check reports what is wrong with a configured server: a server of a
// language without a default needs a command and filetypes; filetypes are
// bare extensions.
func (c Config) Check() error {
	_, known := defaultOf(c.Language)
	switch {
	case c.Language == "":
		return errors.New("a language server needs a language name")
	case c.Command == "" && !known && !c.Disabled:
		return fmt.Errorf("needs a command (steer knows none for %q; its defaults are %s)", c.Language, defaultNames())
	case len(c.Filetypes) == 0 && !known && !c.Disabled:
		return errors.New(`needs "filetypes": the extensions of its files, as ["go"]`)
	}
	for _, f := range c.Filetypes {
		if f == "" || strings.ContainsAny(f, "./\\ *") {
			return fmt.Errorf("filetype %q: want a bare extension such as \"go\" (no dot, no pattern)", f)
		}
	}
	if len(c.InitializationOptions) > 0 && !json.Valid(c.InitializationOptions) {
		return errors.New("initializationOptions is not valid JSON")
	}
	return nil
}

func defaultNames() string {
	var names []string
	for _, d := range Defaults {
		names = append(names, d.Language)
	}
	return strings.Join(names, ", ")
}

// WithDefaults is c with what it leaves out (command and args, filetypes)
// taken from the default server of its language, if there is one.
func (c Config) WithDefaults() Config {
	if d, ok := defaultOf(c.Language); ok {
		if c.Command == "" {
			c.Command, c.Args = d.Command, d.Args
		}
		if len(c.Filetypes) == 0 {
			c.Filetypes = d.Filetypes
		}
	}
	return c
}

// Resolve is the servers a process has: the configured ones, in order, a
// configured server of a default's language taking what it leaves out
// (command and args, filetypes) from that default, then each default that
// lookPath finds (exec.LookPath) and no configured server claims by
// language or by one of its filetypes. A filetype claimed by two enabled
// servers is an error.
func Resolve(configured []Config, lookPath func(string) (string, error)) ([]Config, error) {
	var out []Config
	claimed := map[string]string{} // filetype → language of an enabled server
	languages := map[string]bool{}
	for _, c := range configured {
		if err := c.Check(); err != nil {
			return nil, fmt.Errorf("lsp.%s: %w", c.Language, err)
		}
		c = c.WithDefaults()
		languages[c.Language] = true
		if !c.Disabled {
			for _, f := range c.Filetypes {
				if other, taken := claimed[f]; taken {
					return nil, fmt.Errorf("lsp.%s: filetype %q is also lsp.%s's", c.Language, f, other)
				}
				claimed[f] = c.Language
			}
		}
		out = append(out, c)
	}
	for _, d := range Defaults {
		if languages[d.Language] || slices.ContainsFunc(d.Filetypes, func(f string) bool { return claimed[f] != "" }) {
			continue
		}
		if _, err := lookPath(d.Command); err != nil {
			continue
		}
		d.Detected = true
		out = append(out, d)
	}
	return out, nil
}
