package msgs

import "github.com/steer-tui/steer/agent/runner"

// RunCommandMsg asks to run the slash command Name ("model", without the
// slash) with Args (the rest of the line, trimmed).
type RunCommandMsg struct{ Name, Args string }

// CommandListOpenedMsg reports that the editor's list of slash commands
// opened (a "/" typed): the owner reads its dynamic commands again, so a
// skill or template added on disk since is offered.
type CommandListOpenedMsg struct{}

// OpenHelpMsg asks to show every key and command.
type OpenHelpMsg struct{}

// CloseDialogMsg asks to close the topmost dialog.
type CloseDialogMsg struct{}

// QuitMsg asks to leave: an active run is aborted first and unsent input is
// printed after the screen is restored.
type QuitMsg struct{}

// ToggleMouseMsg asks to turn mouse capture (wheel scrolling) on or off;
// with it off the terminal's own selection and copying work.
type ToggleMouseMsg struct{}

// FocusEditorMsg asks to give the editor the focus, inserting Runes if any
// (typing in another pane goes to the editor).
type FocusEditorMsg struct{ Runes []rune }

// NoticeArrivedMsg reports a notice of the runtime that is not a run event:
// a save that failed (runner.NoticePersistError) or works again
// (runner.NoticePersistRecovered).
type NoticeArrivedMsg struct{ Notice runner.Notice }
