package runner

import (
	"github.com/steer-tui/steer/contextguard/engines"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/lanes"
)

// The words and types of the runner's views and events that a front end
// compares against or names. They are failover's, lanes' and the engines'
// own, given here so that a front end hears of those packages through the
// runner alone (SPEC §1).

// ProfileView.State: a profile may be used, is cooling down, or disabled.
const (
	ProfileAvailable = failover.StateAvailable
	ProfileCooldown  = failover.StateCooldown
	ProfileDisabled  = failover.StateDisabled
)

// AttemptInfo.Decision and AttemptView.Decision: failover.Decision's codes
// (TestDecisionWords keeps them equal).
const (
	DecisionContinueNormal = "continue_normal"
	DecisionRotateProfile  = "rotate_profile"
	DecisionFallbackModel  = "fallback_model"
	DecisionSurfaceError   = "surface_error"
)

// Lane is one lane of a process as LanesView shows it, LaneEntry one run
// running or waiting in it.
type (
	Lane      = lanes.Lane
	LaneEntry = lanes.Entry
)

// LaneSession is the kind of a session's lane.
const LaneSession = lanes.KindSession

// Quarantine is one context engine's quarantine record, as EnginesView
// lists them.
type Quarantine = engines.Quarantine
