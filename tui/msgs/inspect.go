package msgs

import "github.com/steer-tui/steer/agent/runner"

// Inspector names one of the runtime's inspectors (an overlay) by the
// slash command that opens it (inspector.Inspector.Command); every
// registered inspector opens so.
type Inspector string

// The inspectors the TUI refers to by name: the status badge's, and those
// that runtime events refresh.
const (
	InspectProfiles Inspector = "profiles"
	InspectEngines  Inspector = "engines"
	InspectLanes    Inspector = "lanes"
	InspectTrace    Inspector = "trace"
)

// OpenInspectorMsg asks to open inspector Which over the transcript.
type OpenInspectorMsg struct{ Which Inspector }

// AskClearMsg asks to clear Target (an auth profile's cooldown, a context
// engine's quarantine) in the inspector Which shows, once the user has
// confirmed it.
type AskClearMsg struct {
	Which  Inspector
	Target string
}

// ClearMsg asks to clear Target in the inspector Which shows, as its Clear
// does (confirmed): an auth profile's cooldown, a context engine's
// quarantine.
type ClearMsg struct {
	Which  Inspector
	Target string
}

// PreferProfileMsg asks to make Profile the session's preferred auth
// profile, tried first while usable; "" prefers none.
type PreferProfileMsg struct{ Profile string }

// LockProfileMsg asks to lock the session to auth profile Profile, the
// only one it uses; "" unlocks it.
type LockProfileMsg struct{ Profile string }

// HealthChangedMsg reports the auth profiles and context engines as they
// stand: the status bar's badge counts what is unusable.
type HealthChangedMsg struct {
	Profiles []runner.ProfileView
	Engines  runner.EnginesView
}

// ContextMeasuredMsg reports how full the next request would be; the
// status bar's meter shows it.
type ContextMeasuredMsg struct{ Meter runner.ContextMeter }

// InspectPermissions is the permission rules inspector's.
const InspectPermissions Inspector = "permissions"
