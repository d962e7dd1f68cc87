// Package inspector is the contract of the runtime's inspectors and their
// registry: each inspector (the auth profiles, the context engines, the
// lanes, the runs and their failover trace, the MCP servers, the language
// servers, the context files) is one Inspector, defined once in a file of
// its own and registered by one line in registry.go. Every
// front end reads the registry: the TUI opens each by its slash command and
// draws its Table (tui/inspect), rpc answers `inspect {what}` by its Name,
// and `steer inspect NAME` (agent/runner/headless) reads and prints it from
// the state directory.
//
// # Adding an inspector
//
// Write a file with a Def of the inspector's view type and register it in
// All. A Def says, once:
//   - Name and Command: the rpc `inspect` name and `steer inspect`
//     subcommand, and the TUI's slash command (usually the same);
//   - Read: the view from a running runtime (Source, the facade that the
//     TUI and rpc hold), and ReadSaved: the view from the state directory
//     (Saved) for `steer inspect`;
//   - JSON, Answer and Print: what `--json`, rpc and `steer inspect` print;
//   - Table: the rows the TUI shows, a pure function of the view and the
//     clock;
//   - Clear, when a row's Target can be cleared (a cooldown, a quarantine).
//
// The package may call the runner's facade and view types (agent/runner)
// and nothing above it; it does no IO of its own beyond Source's and
// Saved's reads.
package inspector
