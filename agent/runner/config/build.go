package config

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/steer-tui/steer/agent/llm"
)

// builder turns the decoded files (or nothing) plus the environment into a
// Config.
type builder struct {
	// file names the source of errors with no place in a file.
	file  string
	env   func(string) string
	apis  llm.APIs // the APIs a provider may speak
	catFn func() *catalogue
	cat   *catalogue
	d     *decoder
	// defaults holds each provider's default model id.
	defaults map[string]string
	// unbuilt are the keys refused as not supported yet (unbuiltKeys).
	unbuilt []unbuiltKey
}

// catalogue loads the catalogue on first use; only real providers ask.
func (b *builder) catalogue() *catalogue {
	if b.cat == nil {
		b.cat = b.catFn()
	}
	return b.cat
}

// errAt is an Error at the line of a JSON path (line 0 outside a file).
func (b *builder) errAt(path, format string, args ...any) *Error {
	if b.d == nil {
		return &Error{File: b.file, Path: path, Msg: fmt.Sprintf(format, args...)}
	}
	return b.d.errAt(path, format, args...)
}

// envProviders are configured from their key alone (SPEC §11).
var envProviders = []struct{ name, api, baseURL, keyEnv string }{
	{"anthropic", llm.AnthropicMessages, "https://api.anthropic.com", "ANTHROPIC_API_KEY"},
	{"openai", llm.OpenAIChat, "https://api.openai.com/v1", "OPENAI_API_KEY"},
	{"openrouter", llm.OpenAIChat, "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"},
}

func (b *builder) newConfig(source string) *Config {
	b.defaults = map[string]string{}
	// While building, one goroutine resolves references through the builder.
	return &Config{Source: source, UI: UISettings{Theme: ThemeAuto, Notifications: NotifyDesktop, SyncOutput: true},
		Tools: ToolSettings{Sandbox: SandboxSettings{Mode: SandboxOff, Network: NetworkAllow}}, cat: b.catalogue}
}

// done hands the Config its catalogue: the one already loaded, or the lazy
// loader (safe for concurrent use) when no provider needed it.
func (b *builder) done(c *Config) (*Config, error) {
	c.cat = b.catFn
	if cat := b.cat; cat != nil {
		c.cat = func() *catalogue { return cat }
	}
	return c, nil
}

func (b *builder) fromEnvironment() (*Config, error) {
	b.file = SourceEnvironment
	c := b.newConfig(SourceEnvironment)
	if err := b.addEnvProviders(c); err != nil {
		return nil, err
	}
	c.Model = b.defaultModel(c)
	return b.done(c)
}

// addEnvProviders adds a provider for each conventional key variable that
// is set, unless the file already configures that provider.
func (b *builder) addEnvProviders(c *Config) error {
	for _, e := range envProviders {
		if b.env(e.keyEnv) == "" || c.has(e.name) {
			continue
		}
		p, err := b.provider(e.name, &fileProvider{API: e.api, BaseURL: e.baseURL}, e.name)
		if err != nil {
			return err
		}
		c.Providers = append(c.Providers, p)
	}
	return nil
}

// has reports whether a provider of that name or catalogue kind exists.
func (c *Config) has(name string) bool {
	for _, p := range c.Providers {
		if p.Name == name || p.Kind == name {
			return true
		}
	}
	return false
}

// dirOf is the absolute directory of the file that set the value at path:
// what a relative path there (an engine's command, a server's cwd) is
// relative to.
func (b *builder) dirOf(path string) string { return fileDir(b.d.fileOf(path)) }

// fromTree builds the Config of the merged files' tree; source names them.
func (b *builder) fromTree(root *node, source string) (*Config, error) {
	b.file = source
	var fc fileConfig
	b.d = newDecoder(source)
	if err := b.d.decode(root, reflect.ValueOf(&fc).Elem(), ""); err != nil {
		return nil, err
	}
	c := b.newConfig(source)
	for _, f := range root.get("providers").keysOrNil() {
		fp := fc.Providers[f.name]
		if fp == nil {
			fp = &fileProvider{}
		}
		p, err := b.provider(f.name, fp, joinPath("providers", f.name))
		if err != nil {
			return nil, err
		}
		c.Providers = append(c.Providers, p)
	}
	if err := b.addEnvProviders(c); err != nil {
		return nil, err
	}
	if err := b.checkProfileIDs(c); err != nil {
		return nil, err
	}
	if err := b.settings(c, &fc); err != nil {
		return nil, err
	}
	if err := b.references(c, &fc, root); err != nil {
		return nil, err
	}
	if err := b.mcp(c, &fc, root); err != nil {
		return nil, err
	}
	if err := b.lsp(c, &fc, root); err != nil {
		return nil, err
	}
	if err := b.hooks(c, &fc, root); err != nil {
		return nil, err
	}
	if err := b.refuseUnbuilt(root); err != nil {
		return nil, err
	}
	if c.Model == "" {
		c.Model = b.defaultModel(c)
	}
	return b.done(c)
}

// utf8BOM is the byte order mark some editors (Notepad among them) put at
// the start of a UTF-8 file; JSON does not allow it, so it is dropped.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// withoutBOM is data without a leading UTF-8 byte order mark. The mark
// holds no newline, so every line number stays right.
func withoutBOM(data []byte) []byte {
	return bytes.TrimPrefix(data, utf8BOM)
}

// fileDir is the absolute directory of file (as given when the working
// directory cannot be read).
func fileDir(file string) string {
	if abs, err := filepath.Abs(file); err == nil {
		file = abs
	}
	return filepath.Dir(file)
}

func (n *node) keysOrNil() []field {
	if n == nil {
		return nil
	}
	return n.keys
}

func (b *builder) checkProfileIDs(c *Config) error {
	seen := map[string]string{}
	for _, p := range c.Providers {
		for i, pr := range p.Profiles {
			path := indexPath(joinPath(joinPath("providers", p.Name), "profiles"), i)
			if other, dup := seen[pr.ID]; dup {
				return b.errAt(path, "profile id %q is already used by provider %s", pr.ID, other)
			}
			seen[pr.ID] = p.Name
		}
	}
	return nil
}

// nonNegative checks a number that must not be negative: seconds, hours,
// minutes, dollars, tokens.
func (b *builder) nonNegative(path string, v float64) error {
	if v < 0 {
		return b.errAt(path, "must not be negative, got %g", v)
	}
	return nil
}

// seconds converts a checked, non-negative number of seconds, saturating
// instead of overflowing.
func seconds(v float64) time.Duration {
	if ns := v * float64(time.Second); ns < math.MaxInt64 {
		return time.Duration(ns)
	}
	return math.MaxInt64
}

// oneOf renders the accepted values of an enumeration: "a, b or c".
func oneOf(values ...string) string {
	if len(values) == 1 {
		return values[0]
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}
