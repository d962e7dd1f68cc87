package inspector

// All returns the registered inspectors, in the order the TUI's help and
// `steer inspect`'s usage list them. Registering an inspector is one line
// here.
func All() []*Inspector {
	return []*Inspector{
		Profiles,
		Engines,
		Lanes,
		Runs,
		MCP,
		LSP,
		Config,
		Memory,
		Hooks,
		Permissions,
		Context,
	}
}

// Lookup finds the inspector called name (rpc's `what`, `steer inspect
// NAME`).
func Lookup(name string) (*Inspector, bool) {
	for _, i := range All() {
		if i.Name() == name {
			return i, true
		}
	}
	return nil, false
}

// ByCommand finds the inspector that slash command opens.
func ByCommand(command string) (*Inspector, bool) {
	for _, i := range All() {
		if i.Command() == command {
			return i, true
		}
	}
	return nil, false
}

// Names lists the inspectors' names, in order.
func Names() []string {
	var out []string
	for _, i := range All() {
		out = append(out, i.Name())
	}
	return out
}
