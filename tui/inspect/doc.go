// Package inspect is the runtime's inspectors, shown as overlays over the
// transcript: the auth profiles with their cooldowns, the context engines
// with their quarantines, the lanes with their runs, and the failover trace
// of a run. Each is a table built by a pure function from a runtime view
// (runner.ProfileView, runner.EnginesView, runner.LanesView, Run), with the
// selected row's details under it.
//
// The overlay does no IO. Its owner loads the views through the runtime
// facade and hands them in (SetProfiles, SetEngines, SetLanes, SetRuns),
// again whenever the runtime reports a change, and calls Tick once a
// second so that countdowns and ages move with the clock. The clear key
// turns into a request (msgs.AskClearMsg): clearing a cooldown or a
// quarantine is the owner's to confirm and do, as closing (KeyMap.Close)
// is the owner's.
//
// The trace is recorded here too (TraceLog): the runs this screen saw, from
// their annotations (attempts, failovers, retries, compactions), so that a
// run's trace is whole while it is still going.
package inspect
