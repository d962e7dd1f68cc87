package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/command"
	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/input"
	"github.com/steer-tui/steer/tui/msgs"
)

// The user's library — skills and prompt templates on disk — is slash
// commands too: /skill:<name> for each skill the user may invoke, /<name>
// for each template. It is read at start, each time the "/" list opens
// (msgs.CommandListOpenedMsg: a file added on disk is offered without a
// restart) and by /skills, which lists it with what was skipped and why.
// Running one sends the line as typed, as steering like any message (a
// run starts when none is active): the runner expands it, for every front
// end alike (agent/runner/library.go). The library's commands and the MCP
// prompts (mcpprompts.go) are kept apart and joined in syncDynamic, so a
// change of one never drops the other.

// Library is the user's skills and templates; *runner.Host has it
// (host_library.go). It does IO: it is called from tea.Cmd goroutines.
type Library interface {
	// Library reads them as they are on disk now; templates named like
	// one of reserved are listed as skipped.
	Library(reserved []string) runner.Library
}

// libraryMsg is a message of this file's: the root routes them all here.
type libraryMsg interface{ library() }

// openSkillsMsg asks to list the library (/skills).
type openSkillsMsg struct{}

// libraryReadMsg is the library as read; open shows it (/skills).
type libraryReadMsg struct {
	lib  runner.Library
	open bool
}

func (openSkillsMsg) library()  {}
func (libraryReadMsg) library() {}

// routeLibrary handles the library's messages.
func (m Model) routeLibrary(msg libraryMsg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case openSkillsMsg:
		return m.loadLibrary(true), nil
	case libraryReadMsg:
		m.libraryCommands = libraryCommands(msg.lib)
		m.syncDynamic()
		if msg.open {
			return m.openDialog(dialog.NewInfo(m.dialogDeps(), "Skills and prompt templates", skillsText(msg.lib))), nil
		}
	}
	return m, nil
}

// loadLibrary reads the library, with the commands' names reserved; the
// replies come in order on the ordered lane, so the last read is kept.
func (m Model) loadLibrary(open bool) Model {
	rt, reserved := m.rt, m.reservedNames()
	m.calls.submit(call{run: func() tea.Msg { return libraryReadMsg{lib: rt.Library(reserved), open: open} }})
	return m
}

// reservedNames are the registered commands' names and aliases, which a
// template's name yields to.
func (m Model) reservedNames() []string {
	var names []string
	for _, c := range m.commands.All() {
		names = append(append(names, c.Name), c.Aliases...)
	}
	return names
}

// libraryCommands are the library's slash commands: each skill the user
// may invoke, then each template.
func libraryCommands(lib runner.Library) []command.Command {
	var cmds []command.Command
	for _, s := range lib.Skills {
		if s.UserInvocable {
			cmds = append(cmds, lineCommand(runner.SkillPrefix+s.Name, "[args]", oneLine(s.Description, 80)))
		}
	}
	for _, t := range lib.Templates {
		cmds = append(cmds, lineCommand(t.Name, t.ArgumentHint, oneLine(t.Description, 80)))
	}
	return cmds
}

// lineCommand is a command that sends its line as typed, for the runner
// to expand.
func lineCommand(name, args, summary string) command.Command {
	return command.Command{Name: name, Args: args, Summary: summary, Run: func(line string) tea.Msg {
		return msgs.SteerMsg{Text: strings.TrimSpace("/" + name + " " + line)}
	}}
}

// syncDynamic gives the registry and the editor the library's commands and
// the MCP prompts, in that order.
func (m *Model) syncDynamic() {
	cmds := append(append([]command.Command(nil), m.libraryCommands...), m.promptCommands...)
	sugg := make([]input.Suggestion, len(cmds))
	for i, c := range cmds {
		sugg[i] = input.Suggestion{Name: c.Name, Args: c.Args, Summary: c.Summary}
	}
	m.commands.SetDynamic(cmds)
	m.input.SetDynamicCommands(sugg)
}

// skillsText is the library as /skills lists it: each skill and template
// with its description, level and file, then each file skipped and why.
func skillsText(lib runner.Library) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Skills (%d)\n", len(lib.Skills))
	if len(lib.Skills) == 0 {
		b.WriteString("  none: a folder with SKILL.md in .steer/skills, .agents/skills or .claude/skills\n" +
			"  (here or in your home directory) is one\n")
	}
	for _, s := range lib.Skills {
		var notes []string
		if !s.ModelInvocable {
			notes = append(notes, "not shown to the model")
		}
		if !s.UserInvocable {
			notes = append(notes, "not offered after /")
		}
		entry(&b, "/"+runner.SkillPrefix+s.Name, s.Description, string(s.Level), s.Path, notes)
	}
	fmt.Fprintf(&b, "\nPrompt templates (%d)\n", len(lib.Templates))
	if len(lib.Templates) == 0 {
		b.WriteString("  none: NAME.md in .steer/prompts (here) or prompts in steer's config directory is one\n")
	}
	for _, t := range lib.Templates {
		name := "/" + t.Name
		if t.ArgumentHint != "" {
			name += " " + t.ArgumentHint
		}
		entry(&b, name, t.Description, string(t.Level), t.Path, nil)
	}
	if len(lib.Skipped) > 0 {
		fmt.Fprintf(&b, "\nSkipped (%d)\n", len(lib.Skipped))
	}
	for _, s := range lib.Skipped {
		fmt.Fprintf(&b, "  %s %s (%s)\n    %s\n", s.Kind, s.Path, s.Level, oneLine(s.Reason, 200))
	}
	return strings.TrimRight(b.String(), "\n")
}

// entry writes one skill or template: its command and description, then
// where it came from.
func entry(b *strings.Builder, name, desc, level, path string, notes []string) {
	fmt.Fprintf(b, "  %-24s %s\n    %s · %s", name, oneLine(desc, 80), level, path)
	for _, n := range notes {
		b.WriteString(" · " + n)
	}
	b.WriteString("\n")
}
