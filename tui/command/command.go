// Package command is the registry of slash commands: each command's name,
// argument hint and summary, and the request message it turns into. Typing
// "/model x" and picking a model emit the same request, so every action has
// one handler.
//
// Adding a command is one Register call in the TUI's command table; the
// inspectors' commands (/profiles, /engines, /lanes, /trace) are registered
// there from the inspector registry (agent/runner/inspector.All).
package command

import (
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// Command is one slash command.
type Command struct {
	// Name is the command without its slash, in lower case.
	Name string
	// Args is a hint of its arguments ("[provider/model]"), or "".
	Args string
	// Summary says what it does, in a few words.
	Summary string
	// Aliases are other names that run it.
	Aliases []string
	// Run turns the arguments into a request message. It runs on the Update
	// goroutine and must not do IO.
	Run func(args string) tea.Msg
}

// Registry holds commands in the order they were registered, then the
// dynamic ones (the MCP servers' prompts), which SetDynamic replaces as a
// whole.
type Registry struct {
	cmds    []Command
	names   map[string]int
	dynamic []Command
	dnames  map[string]int
}

// New returns an empty registry.
func New() *Registry { return &Registry{names: map[string]int{}} }

// Register adds c; a later command with the same name replaces the earlier.
func (r *Registry) Register(c Command) {
	if i, ok := r.names[c.Name]; ok {
		r.cmds[i] = c
	} else {
		r.names[c.Name] = len(r.cmds)
		r.cmds = append(r.cmds, c)
	}
	for _, a := range c.Aliases {
		r.names[a] = r.names[c.Name]
	}
}

// SetDynamic replaces the dynamic commands with cmds. A registered
// command's name wins over a dynamic one's.
func (r *Registry) SetDynamic(cmds []Command) {
	r.dynamic = append([]Command(nil), cmds...)
	r.dnames = make(map[string]int, len(cmds))
	for i, c := range cmds {
		r.dnames[strings.ToLower(c.Name)] = i
	}
}

// Lookup finds the command called name (or one of its aliases), a
// registered one first, then a dynamic one.
func (r *Registry) Lookup(name string) (Command, bool) {
	if i, ok := r.names[strings.ToLower(name)]; ok {
		return r.cmds[i], true
	}
	if i, ok := r.dnames[strings.ToLower(name)]; ok {
		return r.dynamic[i], true
	}
	return Command{}, false
}

// All returns every registered command in registration order.
func (r *Registry) All() []Command { return append([]Command(nil), r.cmds...) }

// Dynamic returns the dynamic commands, in the order SetDynamic was given.
func (r *Registry) Dynamic() []Command { return append([]Command(nil), r.dynamic...) }

// Names returns every command name, sorted, for hints.
func (r *Registry) Names() []string {
	names := make([]string, len(r.cmds))
	for i, c := range r.cmds {
		names[i] = c.Name
	}
	sort.Strings(names)
	return names
}
