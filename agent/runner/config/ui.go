package config

import "fmt"

// The settings of ui.notifications: how the TUI calls back a user whose
// terminal is not focused when a run ends, fails or waits for approval.
const (
	NotifyDesktop = "desktop" // the terminal's desktop notification, else the bell
	NotifyBell    = "bell"
	NotifyOff     = "off"
)

// ParseNotifications checks a ui.notifications value.
func ParseNotifications(s string) (string, error) {
	switch s {
	case NotifyDesktop, NotifyBell, NotifyOff:
		return s, nil
	}
	return "", fmt.Errorf("unknown notifications setting %q (want %s)", s, oneOf(NotifyDesktop, NotifyBell, NotifyOff))
}

// uiTerminal reads ui.notifications and ui.syncOutput; absent, they keep
// newConfig's defaults.
func (b *builder) uiTerminal(c *Config, fu fileUI) error {
	if n := fu.Notifications; n != "" {
		v, err := ParseNotifications(n)
		if err != nil {
			return b.errAt("ui.notifications", "%v", err)
		}
		c.UI.Notifications = v
	}
	if s := fu.SyncOutput; s != nil {
		c.UI.SyncOutput = *s
	}
	return nil
}
