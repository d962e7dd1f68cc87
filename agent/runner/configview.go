package runner

import "github.com/steer-tui/steer/agent/runner/config"

// ConfigView is the configuration the process started with, as `steer
// config` and /config show it: the layers found (lowest first, an
// untrusted project file listed but not applied), every merged value with
// the files it came from (secrets as set/unset only), and the workspace's
// trust.
type ConfigView struct {
	Layers   []config.Layer   `json:"layers"`
	Settings []config.Setting `json:"settings"`
	Trust    WorkspaceTrust   `json:"trust"`
}

// ViewOf is the view of cfg, with how the workspace stands by gate (nil
// for no workspace check).
func ViewOf(cfg *config.Config, gate *WorkspaceGate) ConfigView {
	v := ConfigView{Layers: cfg.Layers, Settings: cfg.Settings()}
	if gate != nil {
		v.Trust = gate.State()
	}
	return v
}

// ConfigView is the configuration the process started with
// (Options.Config), with the workspace's trust as it stands now.
func (d *trustDesk) ConfigView() ConfigView {
	v := d.cfg
	if d.g != nil {
		v.Trust = d.g.State()
	}
	return v
}
