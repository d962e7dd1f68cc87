package config

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/llm"
	"github.com/steer-tui/steer/agent/lsp"
	"github.com/steer-tui/steer/agent/mcp"
	"github.com/steer-tui/steer/agent/runner/hooks"
	"github.com/steer-tui/steer/agent/tools"
)

// Config is steer's resolved configuration: every reference checked, every
// key read, every model's metadata filled in.
type Config struct {
	// Model is the default model reference (provider/model or an alias);
	// "" when no real provider is configured, and the caller falls back to
	// the built-in scripted provider.
	Model     string
	Fallbacks []string
	// Aliases maps a short name to a provider/model reference.
	Aliases map[string]string
	// Providers are the configured providers: the file's, in file order,
	// then those the environment adds. The built-in scripted provider is not
	// listed but always resolves (see Provider).
	Providers      []Provider
	Agent          AgentSettings
	ContextEngines map[string]ContextEngine
	Auth           AuthSettings
	Tools          ToolSettings
	UI             UISettings
	Budget         Budget
	// MCPServers are steer's own MCP servers (mcpServers), in file order;
	// MCPTrustedProjects the workspace files trusted by the config
	// (mcpTrustedProjects).
	MCPServers         []mcp.Config
	MCPTrustedProjects []mcp.Allowance
	// LSP are the configured language servers (lsp), in file order, as
	// the file declares them: lsp.Resolve adds the defaults found on PATH.
	LSP []lsp.Config
	// Hooks are the command hooks (hooks), checked, per event in file order.
	Hooks []hooks.Hook
	// Permissions are the permission rules of every applied layer, lowest
	// layer first, each list in file order (permissions.go).
	Permissions []PermissionRule
	// Source names the files applied, lowest layer first (", "
	// between them), or is "environment" when none was read.
	Source string
	// Layers are the config files found, lowest first, applied or not
	// (an untrusted project file is not); Settings says what each set.
	Layers []Layer

	settings []Setting

	cat func() *catalogue // nil for a Config built by hand
}

// Provider is one configured provider.
type Provider struct {
	Name string
	// API is the name of one of the APIs Load was given (llm.OpenAIChat, …).
	API     string
	BaseURL string
	// Kind is the catalogue's name for this provider ("openai", "groq", …),
	// found from the name or the base URL; "" when the catalogue has none.
	Kind string
	// Timeout overrides the idle-watchdog window: how long a stream may go
	// without progress (keep-alives do not count); 0 means the provider's
	// default (see SelfHosted).
	Timeout time.Duration
	// FirstProgressTimeout is the window before a stream's first progress
	// (time to first token); 0 means Timeout's window.
	FirstProgressTimeout time.Duration
	Headers              map[string]string
	// Profiles are the credentials, in the configured order; never empty.
	Profiles []Profile
	// Models carry Provider, API and BaseURL, and the catalogue's metadata
	// where the config left it out.
	Models []agent.Model
	// Thinking is each model's own default thinking level, by model id
	// (models[].thinking): what a session on it starts with unless the
	// session chose a level. Models without one use agent.thinking.
	Thinking map[string]agent.ThinkingLevel
	// Discover says that the server lists the provider's models ("discover":
	// true, discover.go): Models are then only those the file lists, and
	// any id of the provider resolves, the server being the judge of it.
	Discover bool
}

// Profile is one credential of a provider (SPEC §5.3).
type Profile struct {
	// ID names the profile in the failure ledger, e.g. "openai:main".
	ID string
	// KeyEnv is the variable the key was read from; "" for a literal key or
	// a keyless local server.
	KeyEnv string
	Key    Secret
	// Unusable says why the profile cannot be used ("OPENAI_API_KEY is not
	// set"); "" when it can.
	Unusable string
}

// Usable returns the profiles that can be used, in the configured order.
// Until failover rotates profiles, the first of them is the one used.
func (p Provider) Usable() []Profile {
	var out []Profile
	for _, pr := range p.Profiles {
		if pr.Unusable == "" {
			out = append(out, pr)
		}
	}
	return out
}

// Unusable says why none of the provider's profiles can be used, naming
// what fixes it ("ANTHROPIC_API_KEY is not set"), or "" when one can.
func (p Provider) Unusable() string {
	if len(p.Profiles) == 0 || len(p.Usable()) > 0 {
		return ""
	}
	var vars, reasons []string
	for _, pr := range p.Profiles {
		if !slices.Contains(reasons, pr.Unusable) {
			reasons = append(reasons, pr.Unusable)
		}
		if pr.KeyEnv != "" && isConventionalVar(pr.KeyEnv) && !slices.Contains(vars, pr.KeyEnv) {
			vars = append(vars, pr.KeyEnv)
		}
	}
	switch {
	case len(vars) != len(reasons):
		return strings.Join(reasons, "; ")
	case len(vars) == 1:
		return vars[0] + " is not set"
	}
	return strings.Join(vars[:len(vars)-1], ", ") + " and " + vars[len(vars)-1] + " are not set"
}

// DefaultRunTimeout is agent.timeoutSeconds' default (SPEC §7: long, as in
// OpenClaw).
const DefaultRunTimeout = 48 * time.Hour

// AgentSettings are the "agent" section. Zero values mean the default.
type AgentSettings struct {
	// Timeout is the run timeout: DefaultRunTimeout unless the file sets
	// one; 0 means no limit (the provider's idle watchdog still applies).
	Timeout       time.Duration
	Thinking      agent.ThinkingLevel
	MaxConcurrent int
	ContextEngine string
	SteeringMode  agent.QueueMode
	FollowUpMode  agent.QueueMode
	// MaxInputBytes bounds one input (prompt, steering, follow-up); 0 means
	// the runner's default.
	MaxInputBytes int
}

// LegacyEngine is the built-in context engine's name, agent.contextEngine's
// default.
const LegacyEngine = "legacy"

// ContextEngine is an external context engine: a command steer talks to.
type ContextEngine struct {
	Command []string
	Timeout time.Duration // 0 means the default
	// Dir is the directory of the config file that names the engine: the
	// engine runs there, so that a relative path in Command means the same
	// whatever directory steer is started in.
	Dir string
}

// AuthSettings are the "auth" section.
type AuthSettings struct {
	Cooldowns Cooldowns
	// MaxCooldownWait bounds every wait for a provider: a cooldown waited
	// out when every candidate is cooling down, a same-profile retry's
	// delay (auth.maxCooldownWaitSeconds); nil when the file sets none
	// (failover.DefaultCooldownWait), 0 for no wait at all.
	MaxCooldownWait *time.Duration
}

// Cooldowns tune the failure ledger (SPEC §5.3); 0 means the default.
type Cooldowns struct {
	BillingBackoff       time.Duration
	BillingMax           time.Duration
	AuthPermanentBackoff time.Duration
	AuthPermanentMax     time.Duration
	FailureWindow        time.Duration
}

// ToolSettings are the "tools" section.
type ToolSettings struct {
	// Approval is the policy the file sets, "" when it sets none: then
	// the mode decides (ask in the TUI, auto in steer run and steer rpc),
	// unless --approve is given.
	Approval tools.Mode
	// Sandbox is tools.sandbox: how the bash tool's commands are confined.
	Sandbox SandboxSettings
	// Fetch is tools.fetch: what the fetch tool may reach.
	Fetch FetchSettings
}

// FetchSettings are tools.fetch.
type FetchSettings struct {
	// AllowPrivate lets fetch reach loopback, private and link-local
	// addresses (a local dev server, the LAN), which it refuses by default.
	AllowPrivate bool
}

// Budget is the "budget" section: spend caps in US dollars (at the
// catalogue's prices) and in tokens; 0 is no cap.
type Budget struct {
	SessionUSD, RunUSD       float64
	SessionTokens, RunTokens int
}

// UISettings are the "ui" section.
type UISettings struct {
	// Theme is ThemeAuto (the default), ThemeDark, ThemeLight or the name
	// of a theme file in ThemesDir; the --theme flag overrides it.
	Theme string
	// Notifications is NotifyDesktop (the default), NotifyBell or
	// NotifyOff (ui.go).
	Notifications string
	// SyncOutput is ui.syncOutput: synchronized frames where the terminal
	// supports them (the default), or never.
	SyncOutput bool
	// Plain starts the plain front end (--plain): each finished item
	// written once, for screen readers and logs.
	Plain bool
}

// The terminal UI's built-in themes: auto asks the terminal for its
// background.
const (
	ThemeAuto  = "auto"
	ThemeDark  = "dark"
	ThemeLight = "light"
)

// SourceEnvironment is Config.Source when no file was read.
const SourceEnvironment = "environment"

// DefaultPath is <os.UserConfigDir()>/steer/config.json.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("config: %w", err)
	}
	return filepath.Join(dir, "steer", "config.json"), nil
}

// Load reads one configuration file: path, or DefaultPath when path is ""
// (which may be missing: then the environment alone configures steer). An
// explicit path must exist. LoadFiles reads the layers steer starts with.
// env looks variables up (os.Getenv in production); Load reads the
// environment through it only.
//
// Every error is one line naming the file and, when it can, the line and
// the JSON path; it never contains a key. The model catalogue is loaded
// only when a real (non-scripted) provider is configured.
func Load(path string, env func(string) string, apis llm.APIs) (*Config, error) {
	return loadWith(path, env, apis, catalogueOf(apis), unbuiltKeys)
}

// loadWith is Load with the catalogue's loader given, refusing the unbuilt
// keys given; tests of the values of unbuilt keys pass none.
func loadWith(path string, env func(string) string, apis llm.APIs, cat func() *catalogue, unbuilt []unbuiltKey) (*Config, error) {
	layer := layerFile{kind: LayerExplicit, path: path, applied: true}
	if path == "" {
		layer = layerFile{kind: LayerGlobal, optional: true, applied: true}
		if p, err := DefaultPath(); err == nil {
			layer.path = p
		}
	}
	return loadLayers([]layerFile{layer}, &builder{env: env, apis: apis, catFn: cat, unbuilt: unbuilt})
}

// SelfHosted reports whether the base URL is a loopback or private address,
// a local server: it may need no key and gets the longer idle window.
func (p Provider) SelfHosted() bool { return selfHosted(p.BaseURL) }

func selfHosted(baseURL string) bool {
	u, err := url.Parse(baseURL)
	if err != nil || u.Hostname() == "" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified())
}

// Provider returns the provider named name; "scripted" is always there.
func (c *Config) Provider(name string) (Provider, bool) {
	for _, p := range c.AllProviders() {
		if p.Name == name {
			return p, true
		}
	}
	return Provider{}, false
}
