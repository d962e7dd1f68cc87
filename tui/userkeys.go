package tui

import (
	"github.com/steer-tui/steer/tui/chat"
	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/form"
	"github.com/steer-tui/steer/tui/input"
	"github.com/steer-tui/steer/tui/inspect"
	"github.com/steer-tui/steer/tui/keybind"
	"github.com/steer-tui/steer/tui/listnav"
	"github.com/steer-tui/steer/tui/queue"
	"github.com/steer-tui/steer/tui/treeview"
)

// The user's key bindings (keybindings.json, see tui/keybind) are applied
// wherever a KeyMap is built: Options.Keys goes through keybind.Bind with
// each component's defaults.

// actionIDs are the action ids keybindings.json may name: every binding of
// every KeyMap the TUI builds.
func actionIDs() map[string]bool {
	return keybind.IDs(DefaultKeyMap(), chat.DefaultKeyMap(), input.DefaultKeyMap(), input.DefaultEditKeyMap(),
		input.DefaultHistoryKeyMap(), queue.DefaultKeyMap(), dialog.DefaultKeyMap(), form.DefaultKeyMap(),
		inspect.DefaultKeyMap(), treeview.DefaultKeyMap(), listnav.DefaultKeyMap())
}

// LoadKeyBindings reads the user's key bindings from path (a missing file
// binds nothing); problems name the file and say what was not used, for the
// transcript to show at start-up.
func LoadKeyBindings(path string) (keybind.User, []string) {
	return keybind.Load(path, actionIDs())
}

func (m Model) dialogKeys() dialog.KeyMap { return keybind.Bind(m.opts.Keys, dialog.DefaultKeyMap()) }

func (m Model) inspectKeys() inspect.KeyMap {
	return keybind.Bind(m.opts.Keys, inspect.DefaultKeyMap())
}

func (m Model) formKeys() form.KeyMap { return keybind.Bind(m.opts.Keys, form.DefaultKeyMap()) }

func (m Model) treeKeys() treeview.KeyMap { return keybind.Bind(m.opts.Keys, treeview.DefaultKeyMap()) }
