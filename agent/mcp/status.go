package mcp

// State is where a server stands.
type State string

// The states a server goes through.
const (
	// StateStarting: connecting (or waiting to reconnect after a failure).
	StateStarting State = "starting"
	// StateReady: connected; its tools are offered.
	StateReady State = "ready"
	// StateFailed: it crashed, hung past its timeout, wrote garbage or
	// could not be started; Error and Stderr say why.
	StateFailed State = "failed"
	// StateNeedsLogin: an HTTP server answered 401 (see LoginHint).
	StateNeedsLogin State = "needs login"
	// StateUntrusted: it comes from a workspace file not trusted yet, and
	// was not started.
	StateUntrusted State = "untrusted"
	// StateDisabled: "enabled": false.
	StateDisabled State = "disabled"
)

// Status is a server as the inspector and `steer mcp list` show it. Its
// texts carry no secret (see the package doc).
type Status struct {
	Name      string    `json:"name"`
	Transport Transport `json:"transport"`
	Source    Source    `json:"source"`
	State     State     `json:"state"`
	Tools     int       `json:"tools"`
	Prompts   int       `json:"prompts"`
	Resources int       `json:"resources"`
	// Error is the last failure, "" when there was none.
	Error string `json:"error,omitempty"`
	// Stderr are a stdio server's last stderr lines at its last failure.
	Stderr []string `json:"stderr,omitempty"`
	// Restarts counts the restarts since the last start by hand.
	Restarts int `json:"restarts"`
	// LoginHint is the command that logs in, set in StateNeedsLogin.
	LoginHint string `json:"loginHint,omitempty"`
}

// settled reports whether a headless run may stop waiting for the server.
func (s State) settled() bool { return s != StateStarting }

// LoginCommand is the command that logs in to the server named name.
func LoginCommand(name string) string { return "steer mcp login " + name }
