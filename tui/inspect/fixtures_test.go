package inspect

import (
	"time"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/inspector"
	"github.com/steer-tui/steer/contextguard/engines"
	"github.com/steer-tui/steer/failover"
)

// epoch is the tests' clock, in the local zone as a user's clock is.
var epoch = time.Date(2026, 5, 6, 12, 0, 0, 0, time.Local)

// profiles are the views of the auth-rotation scenario's ledger at now:
// primary failed with auth at epoch (a 30 s cooldown), backup answered, a
// third profile ran out of credit an hour ago.
func profiles(now time.Time) []runner.ProfileView {
	cd := failover.Cooldowns{}
	primary := failover.ProfileState{}.RecordFailure(failover.Failure{At: epoch, Reason: failover.ReasonAuth, ProviderReached: true}, cd)
	backup := failover.ProfileState{}.RecordSuccess(epoch.Add(time.Second))
	billing := failover.ProfileState{}.RecordFailure(failover.Failure{At: epoch.Add(-time.Hour), Reason: failover.ReasonBilling,
		ProviderReached: true}, cd)
	return []runner.ProfileView{
		runner.ViewProfile("scripted:primary", "scripted", primary, now),
		runner.ViewProfile("scripted:backup", "scripted", backup, now),
		runner.ViewProfile("scripted:spare", "scripted", billing, now),
	}
}

// crashed is the engines of a session whose external engine crashed.
func crashed() runner.EnginesView {
	return runner.ViewEngines("crashy", []runner.EngineRef{{Name: "crashy", Command: []string{"sh", "-c", "exit 3"}}},
		[]engines.Quarantine{
			{Engine: "crashy", Method: engines.MethodAssemble, Reason: engines.ReasonCrash, Error: "the engine exited: exit status 3",
				Since: epoch, Last: epoch.Add(time.Second), Count: 2},
			{Engine: "old", Method: engines.MethodIngest, Reason: engines.ReasonTimeout, Error: "no answer within 30s",
				Since: epoch.Add(-time.Hour), Last: epoch.Add(-time.Hour), Count: 1},
		})
}

// The tables, as the registered inspectors build them from their views.
func profilesTable(v []runner.ProfileView, now time.Time) inspector.Table {
	return inspector.Profiles.Table(inspector.ProfilesView{Profiles: v}, inspector.Frame{Now: now})
}

func enginesTable(v runner.EnginesView, now time.Time) inspector.Table {
	return inspector.Engines.Table(v, inspector.Frame{Now: now})
}

func lanesTable(v runner.LanesView, now time.Time) inspector.Table {
	return inspector.Lanes.Table(v, inspector.Frame{Now: now})
}

func traceTable(runs []inspector.Run, i int, now time.Time) inspector.Table {
	return inspector.Runs.Table(inspector.RunsView{Seen: runs}, inspector.Frame{Now: now, Page: i})
}

// clock is how the tables word a time of the same day, as the tests' are.
func clock(t, _ time.Time) string { return t.Local().Format(time.TimeOnly) }
