// Package inspect draws the runtime's inspectors as overlays over the
// transcript: any registered inspector (agent/runner/inspector: the auth
// profiles with their cooldowns, the context engines with their
// quarantines, the lanes with their runs, the failover trace of each run)
// as its Table, with the selected row's details under it.
//
// The overlay does no IO and knows no inspector by name: its owner reads
// the view through the inspector's Read and hands it in (SetView), again
// whenever the runtime reports a change, and calls Tick once a second so
// that countdowns and ages move with the clock. The clear key turns into a
// request (msgs.AskClearMsg): clearing a row's target is the owner's to
// confirm and do (the inspector's Clear), as closing (KeyMap.Close) is the
// owner's; p and l on a row with a Choice ask to prefer or lock its
// profile; ← and → go through a table's Pages.
//
// The trace is recorded here too (TraceLog): the runs this screen saw, from
// their annotations (attempts, failovers, retries, compactions), so that a
// run's trace is whole while it is still going; it is handed in as the runs
// inspector's view (inspector.RunsView.Seen).
package inspect
