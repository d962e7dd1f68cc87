package config

// The file schema: what config.json may contain, key for key (SPEC §11).
// The decoder accepts exactly these keys; pointers mark values whose absence
// differs from zero.

type fileConfig struct {
	Model          string                       `json:"model"`
	Fallbacks      []string                     `json:"fallbacks"`
	Aliases        map[string]string            `json:"aliases"`
	Providers      map[string]*fileProvider     `json:"providers"`
	Agent          fileAgent                    `json:"agent"`
	ContextEngines map[string]fileContextEngine `json:"contextEngines"`
	Auth           fileAuth                     `json:"auth"`
	Tools          fileTools                    `json:"tools"`
	UI             fileUI                       `json:"ui"`
	Budget         fileBudget                   `json:"budget"`
	// MCPServers and MCPTrustedProjects are read by mcp.go.
	MCPServers         map[string]fileMCPServer `json:"mcpServers"`
	MCPTrustedProjects []fileMCPTrust           `json:"mcpTrustedProjects"`
	// LSP is read by lsp.go.
	LSP map[string]fileLSPServer `json:"lsp"`
	// Hooks is read by hooks.go.
	Hooks map[string][]fileHookGroup `json:"hooks"`
	// Permissions is read per layer by permissions.go: rules add up
	// across the layers instead of the higher list replacing the lower.
	Permissions filePermissions `json:"permissions"`
}

type fileProvider struct {
	API                         string            `json:"api"`
	BaseURL                     string            `json:"baseURL"`
	TimeoutSeconds              float64           `json:"timeoutSeconds"`
	FirstProgressTimeoutSeconds float64           `json:"firstProgressTimeoutSeconds"`
	Headers                     map[string]string `json:"headers"`
	Profiles                    []fileProfile     `json:"profiles"`
	Models                      []fileModel       `json:"models"`
	// Discover lists the models from the server (discover.go).
	Discover bool `json:"discover"`
}

type fileProfile struct {
	ID        string `json:"id"`
	APIKeyEnv string `json:"apiKeyEnv"`
	APIKey    string `json:"apiKey"`
}

type fileModel struct {
	ID            string    `json:"id"`
	Name          string    `json:"name"`
	ContextWindow *int      `json:"contextWindow"`
	MaxOutput     *int      `json:"maxOutput"`
	Reasoning     *bool     `json:"reasoning"`
	Input         []string  `json:"input"`
	Cost          *fileCost `json:"cost"`
	Thinking      string    `json:"thinking"`
}

type fileCost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
}

type fileAgent struct {
	TimeoutSeconds *float64 `json:"timeoutSeconds"`
	Thinking       string   `json:"thinking"`
	MaxConcurrent  int      `json:"maxConcurrent"`
	ContextEngine  string   `json:"contextEngine"`
	SteeringMode   string   `json:"steeringMode"`
	FollowUpMode   string   `json:"followUpMode"`
	MaxInputBytes  *int     `json:"maxInputBytes"`
}

type fileContextEngine struct {
	Command        []string `json:"command"`
	TimeoutSeconds float64  `json:"timeoutSeconds"`
}

type fileAuth struct {
	Cooldowns              fileCooldowns `json:"cooldowns"`
	MaxCooldownWaitSeconds *float64      `json:"maxCooldownWaitSeconds"`
}

type fileCooldowns struct {
	BillingBackoffHours         float64 `json:"billingBackoffHours"`
	BillingMaxHours             float64 `json:"billingMaxHours"`
	AuthPermanentBackoffMinutes float64 `json:"authPermanentBackoffMinutes"`
	AuthPermanentMaxMinutes     float64 `json:"authPermanentMaxMinutes"`
	FailureWindowHours          float64 `json:"failureWindowHours"`
}

type fileTools struct {
	Approval string      `json:"approval"`
	Sandbox  fileSandbox `json:"sandbox"`
	Fetch    fileFetch   `json:"fetch"`
}

// fileFetch is tools.fetch.
type fileFetch struct {
	AllowPrivate bool `json:"allowPrivate"`
}

// fileSandbox is tools.sandbox (sandbox.go).
type fileSandbox struct {
	Mode     string   `json:"mode"`
	Network  string   `json:"network"`
	Writable []string `json:"writable"`
}

// filePermissions is Claude Code's "permissions" object: rules in its
// syntax, by list.
type filePermissions struct {
	Allow []string `json:"allow"`
	Ask   []string `json:"ask"`
	Deny  []string `json:"deny"`
}

type fileUI struct {
	Theme         string `json:"theme"`
	Notifications string `json:"notifications"`
	SyncOutput    *bool  `json:"syncOutput"`
	Plain         bool   `json:"plain"`
}

type fileBudget struct {
	Session       float64 `json:"session"`
	Run           float64 `json:"run"`
	SessionTokens int     `json:"sessionTokens"`
	RunTokens     int     `json:"runTokens"`
}
