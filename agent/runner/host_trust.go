package runner

// The workspace trust is the process's: the host forwards to its first
// runtime (trust.go).

// WorkspaceTrust is how the workspace stands, for the trust dialog; false
// when it brings nothing that needs trust.
func (h *Host) WorkspaceTrust() (WorkspaceTrust, bool) { return h.first.WorkspaceTrust() }

// WorkspaceTrusted reports whether what the workspace brings may take
// effect.
func (h *Host) WorkspaceTrusted() bool { return h.first.WorkspaceTrusted() }

// TrustWorkspace records that the user trusts the workspace as it is now
// and starts its .mcp.json servers.
func (h *Host) TrustWorkspace() error { return h.first.TrustWorkspace() }

// ConfigView is the configuration the process started with, for /config.
func (h *Host) ConfigView() ConfigView { return h.first.ConfigView() }
