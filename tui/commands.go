package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/inspector"
	"github.com/steer-tui/steer/tui/command"
	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/msgs"
)

// registerCommands is the table of slash commands. Each turns into the same
// request a key or a picker sends.
func (m Model) registerCommands() *command.Registry {
	r := command.New()
	r.Register(command.Command{Name: "new", Summary: "start a new session",
		Run: func(string) tea.Msg { return msgs.NewSessionMsg{} }})
	r.Register(command.Command{Name: "sessions", Summary: "resume a saved session", Aliases: []string{"resume"},
		Run: func(string) tea.Msg { return msgs.OpenSessionsMsg{} }})
	r.Register(command.Command{Name: "tree", Summary: "the session's tree: go back to any entry, branch, label",
		Run: func(string) tea.Msg { return openTreeMsg{} }})
	r.Register(command.Command{Name: "fork", Summary: "a new session from before one of your messages, that message in the editor",
		Run: func(string) tea.Msg { return openForkMsg{} }})
	r.Register(command.Command{Name: "clone", Summary: "a new session holding this one's history",
		Run: func(string) tea.Msg { return cloneMsg{} }})
	r.Register(command.Command{Name: "name", Args: "[name]", Summary: "name this session (the list shows the name)",
		Run: func(args string) tea.Msg { return nameSessionMsg{name: args} }})
	r.Register(command.Command{Name: "export", Args: "[file]", Summary: "save this session as HTML (or .md, .jsonl)",
		Run: func(args string) tea.Msg { return exportSessionMsg{file: args} }})
	r.Register(command.Command{Name: "model", Args: "[provider/model]", Summary: "pick or set the model",
		Run: func(args string) tea.Msg {
			if args == "" {
				return msgs.OpenModelsMsg{}
			}
			return msgs.SetModelMsg{Ref: args}
		}})
	r.Register(command.Command{Name: "thinking", Args: "[level]", Summary: "pick or set the thinking level",
		Run: func(args string) tea.Msg {
			if args == "" {
				return msgs.OpenThinkingMsg{}
			}
			if l, ok := agent.ParseThinkingLevel(args); ok {
				return msgs.SetThinkingMsg{Level: l}
			}
			return msgs.HintMsg{Text: fmt.Sprintf("unknown thinking level %q: off, minimal, low, medium, high or xhigh", args)}
		}})
	r.Register(command.Command{Name: "plan", Args: "[on|off]", Summary: "plan mode: only read-only tools run, the model writes a plan for you to approve",
		Run: planCommand})
	r.Register(command.Command{Name: "compact", Args: "[instructions]", Summary: "summarise older history to free context",
		Run: func(args string) tea.Msg { return compactMsg{instructions: args} }})
	r.Register(command.Command{Name: "budget", Args: "[amount|off]", Summary: "show or change the spend caps",
		Run: func(args string) tea.Msg { return budgetMsg{args: args} }})
	for _, ins := range inspector.All() {
		which := msgs.Inspector(ins.Command())
		c := command.Command{Name: ins.Command(), Summary: ins.Summary(),
			Run: func(string) tea.Msg { return msgs.OpenInspectorMsg{Which: which} }}
		if which == msgs.InspectPermissions { // it also adds a rule
			c.Args, c.Run = permissionsArgs, permissionsCommand
		}
		r.Register(c)
	}
	r.Register(command.Command{Name: "skills", Summary: "your skills and prompt templates, where each came from, what was skipped",
		Run: func(string) tea.Msg { return openSkillsMsg{} }})
	r.Register(command.Command{Name: "rewind", Summary: "take the code, the conversation or both back to before a turn",
		Run: func(string) tea.Msg { return openRewindMsg{} }})
	r.Register(command.Command{Name: "redo", Summary: "undo the last rewind",
		Run: func(string) tea.Msg { return redoMsg{} }})
	r.Register(command.Command{Name: "theme", Args: "[name]", Summary: "pick or set the theme: dark, light or a file of the themes directory",
		Run: func(args string) tea.Msg {
			if args == "" {
				return openThemesMsg{}
			}
			return setThemeMsg{name: args}
		}})
	r.Register(command.Command{Name: "copy", Summary: "copy the last answer as Markdown (y copies the selected item in the transcript)",
		Run: func(string) tea.Msg { return copyLastMsg{} }})
	r.Register(command.Command{Name: "help", Summary: "keys and commands",
		Run: func(string) tea.Msg { return msgs.OpenHelpMsg{} }})
	r.Register(command.Command{Name: "quit", Summary: "leave steer", Aliases: []string{"exit"},
		Run: func(string) tea.Msg { return msgs.QuitMsg{} }})
	return r
}

// handleCommand runs a typed slash command; an unknown one gets a hint.
func (m Model) handleCommand(msg msgs.RunCommandMsg) (Model, tea.Cmd) {
	c, ok := m.commands.Lookup(msg.Name)
	if !ok && strings.HasPrefix(msg.Name, runner.SkillPrefix) {
		// A skill not listed yet (or not at all): the runner expands it, or
		// says which skills there are and gives the line back.
		return m.route(lineCommand(msg.Name, "", "").Run(msg.Args))
	}
	if !ok {
		return m.hint(fmt.Sprintf("unknown command /%s · type / to see the commands", msg.Name))
	}
	if m, cmd, done := m.holdOrRun(msg); done { // while a run is active (held.go)
		return m, cmd
	}
	req := c.Run(msg.Args)
	return m.route(req)
}

func (m Model) handleOpenHelp() (Model, tea.Cmd) {
	return m.openDialog(dialog.NewInfo(m.dialogDeps(), "Keys and commands", m.helpText())), nil
}

// helpText lists every binding (whether it applies now or not) and every
// command, generated from the keymaps and the registry.
func (m Model) helpText() string {
	var b strings.Builder
	section := func(title string, bs []key.Binding) {
		fmt.Fprintf(&b, "%s\n", title)
		for _, k := range bs {
			if h := k.Help(); h.Key != "" {
				fmt.Fprintf(&b, "  %-12s %s\n", h.Key, h.Desc)
			}
		}
		b.WriteString("\n")
	}
	section("Editor", append(bindings(m.input.Keys().FullHelp()), m.input.EditKeys().Bindings()...))
	section("Anywhere", m.keys.all())
	section("Transcript (tab to focus)", bindings(m.chat.Keys().FullHelp()))
	section("Queue (tab to focus)", m.queue.Keys().ShortHelp())
	section("Inspectors ("+inspectorCommands()+")", bindings(m.inspectKeys().FullHelp()))
	b.WriteString("Commands\n")
	for _, c := range append(m.commands.All(), m.commands.Dynamic()...) { // skills, templates, MCP prompts last
		name := "/" + c.Name
		if c.Args != "" {
			name += " " + c.Args
		}
		fmt.Fprintf(&b, "  %-24s %s\n", name, c.Summary)
	}
	return strings.TrimRight(b.String(), "\n")
}

// inspectorCommands lists the inspectors' slash commands: "/profiles,
// /engines, …".
func inspectorCommands() string {
	var names []string
	for _, ins := range inspector.All() {
		names = append(names, "/"+ins.Command())
	}
	return strings.Join(names, ", ")
}
