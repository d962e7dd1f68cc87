// Package term speaks to the terminal beyond drawing: it asks what the
// terminal supports (synchronized output), and makes the escape sequences
// that notify the user and fill the clipboard, wrapped for tmux where they
// must pass through it. It decides from the environment and the terminal's
// answers; writing the sequences is the caller's (the screen's) job, so that
// they never cut into a frame.
//
// # Notifications
//
// Notifier picks, once at start-up, how to tell the user that something
// needs them (DetectNotifier's table): a desktop notification where the
// terminal is known to show one, else the bell.
//
// # Clipboard
//
// Clipboard makes the OSC 52 sequence that sets the terminal's clipboard
// (it works over ssh, and in tmux with set-clipboard on); CopySystem hands
// the text to the system clipboard's command-line tool where one is
// reachable.
//
// # Synchronized output
//
// AskSync asks the terminal whether it supports DEC mode 2026 (a frame
// drawn between CSI ? 2026 h and CSI ? 2026 l shows at once, never torn).
package term
