// Package tui is steer's terminal UI: a Bubble Tea v1 program that shows the
// conversation with the agent as it streams, and lets the user steer the
// agent while it works by typing.
//
// # Layout
//
// From top to bottom: the transcript (tui/chat), the queue strip of pending
// steering and follow-ups (tui/queue), the editor (tui/input), the status
// bar (tui/status) and a help line generated from the keymaps that apply
// now. Pickers and the help text open as dialogs (tui/dialog) over the
// transcript; the inspectors of the runtime (every one that
// agent/runner/inspector registers: /profiles, /engines, /lanes, /trace;
// drawn by tui/inspect, wired in inspectors.go and health.go) as a box over
// its top. Colours and markdown styles come from tui/theme, and every
// string from a model or a tool passes through tui/sanitize before it is
// styled.
//
// # Talking to the runtime
//
// The TUI depends on the runtime facade only through the small interfaces
// in runtime.go (Runtime, and the optional SessionBrowser). Events come in
// through one bridge (bridge.go): a subscriber that only buffers and
// coalesces, and one pump goroutine that sends a msgs.RunEventMsg at most
// ~30 times a second while deltas stream and at once for anything else.
// The runtime's notices (a failed save) take the same way. Requests go the
// other way through one owner (calls.go): Update queues them in the order
// the user made them and never waits, one goroutine runs them in that order,
// and each reply comes back tagged with its request's id, so that a reply
// the user has moved on from is dropped.
//
// # Messages
//
// The root model (Model) is a router: Update sends each message to one
// handler or to the component that owns it. Keys climb the ladder written
// above handleKey. Keys, slash commands and pickers all emit the requests
// of tui/msgs, so each action has one handler.
//
// # Starting
//
// RunTerminal is main's way in (terminal.go): it refuses to start without a
// terminal (ErrNoTerminal), decides the theme once from --theme, ui.theme
// and the terminal, writes the welcome, and calls Run.
package tui
