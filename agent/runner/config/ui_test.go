package config

import (
	"strings"
	"testing"
)

func TestUITerminalSettings(t *testing.T) {
	tests := []struct {
		name, body    string
		notifications string
		sync          bool
	}{
		{"defaults", `{}`, NotifyDesktop, true},
		{"bell", `{"ui": {"notifications": "bell"}}`, NotifyBell, true},
		{"off", `{"ui": {"notifications": "off"}}`, NotifyOff, true},
		{"sync off", `{"ui": {"syncOutput": false}}`, NotifyDesktop, false},
		{"sync on said", `{"ui": {"syncOutput": true, "notifications": "desktop"}}`, NotifyDesktop, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := mustLoad(t, tt.body, nil)
			if cfg.UI.Notifications != tt.notifications || cfg.UI.SyncOutput != tt.sync {
				t.Fatalf("notifications %q, syncOutput %v; want %q, %v", cfg.UI.Notifications, cfg.UI.SyncOutput, tt.notifications, tt.sync)
			}
		})
	}
	// No config file at all: the same defaults.
	cfg, err := load("", envOf(nil), defaultCatalogue)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.UI.Notifications != NotifyDesktop || !cfg.UI.SyncOutput {
		t.Errorf("without a file: notifications %q, syncOutput %v", cfg.UI.Notifications, cfg.UI.SyncOutput)
	}
}

func TestUITerminalSettingsRefused(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"unknown notifications", `{"ui": {"notifications": "loud"}}`,
			`ui.notifications: unknown notifications setting "loud" (want desktop, bell or off)`},
		{"syncOutput not a boolean", `{"ui": {"syncOutput": "no"}}`, `ui.syncOutput`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(writeConfig(t, tt.body), envOf(nil), defaultCatalogue)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one with %q", err, tt.want)
			}
		})
	}
}
