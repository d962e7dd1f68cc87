package tui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/msgs"
)

// The workspace trust on screen:
//
//	what                                 effect
//	start-up, an untrusted workspace     one guarded question listing what it
//	that brings a project config or a    brings (the config's keys, each
//	.mcp.json                            .mcp.json command): allow
//	                                     (TrustWorkspace) or not now; asked once
//	not now                              a note: the project config waits for
//	                                     trust (/config shows it as not applied)

// Workspace is what the TUI asks of the runtime about the workspace's
// trust. The methods may do IO: they are called from tea.Cmd goroutines.
type Workspace interface {
	// WorkspaceTrust is how the workspace stands (false: it brings
	// nothing that needs trust); TrustWorkspace records the user's trust
	// and starts its .mcp.json servers.
	WorkspaceTrust() (runner.WorkspaceTrust, bool)
	TrustWorkspace() error
}

// trustMsg is a message of this file's: the root routes them all here.
type trustMsg interface{ trust() }

// workspaceTrustMsg is the untrusted workspace, read at start-up.
type workspaceTrustMsg struct{ w runner.WorkspaceTrust }

// trustWorkspaceMsg is the question's allow; notNowMsg its not now.
type (
	trustWorkspaceMsg struct{ w runner.WorkspaceTrust }
	notNowMsg         struct{ w runner.WorkspaceTrust }
)

// trustedMsg says how recording the trust went.
type trustedMsg struct {
	w   runner.WorkspaceTrust
	err error
}

func (workspaceTrustMsg) trust() {}
func (trustWorkspaceMsg) trust() {}
func (notNowMsg) trust()         {}
func (trustedMsg) trust()        {}

// routeTrust handles the trust messages.
func (m Model) routeTrust(msg trustMsg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case workspaceTrustMsg:
		return m.askTrust(msg.w), nil
	case trustWorkspaceMsg:
		rt := m.rt
		return m, func() tea.Msg { return trustedMsg{w: msg.w, err: rt.TrustWorkspace()} }
	case notNowMsg:
		if msg.w.Config == "" {
			return m, nil
		}
		return m.updateChat(msgs.NoteMsg{Text: "the project config " + msg.w.Config +
			" waits for trust: it is not applied (steer trust, or restart and allow)"})
	case trustedMsg:
		m = m.reloadInspector(msgs.InspectMCP)
		if msg.err != nil {
			return m.updateStatus(msgs.ErrorMsg{Action: "trust " + msg.w.Path, Err: msg.err})
		}
		m = m.loadLibrary(false) // the workspace's skills now apply
		what := "trusted " + msg.w.Path
		var now []string
		if msg.w.MCP != "" {
			now = append(now, "its MCP servers start")
		}
		if len(msg.w.Skills) > 0 {
			now = append(now, "its skills apply")
		}
		if len(now) > 0 {
			what += ": " + strings.Join(now, ", ")
		}
		if msg.w.Config != "" {
			what += "; its project config applies when steer starts next"
		}
		return m.hint(what)
	}
	return m, nil
}

// readWorkspaceTrust reads at start-up whether the workspace waits for
// trust, for the question.
func readWorkspaceTrust(rt Workspace) tea.Cmd {
	return func() tea.Msg {
		w, ok := rt.WorkspaceTrust()
		if !ok || w.Trusted {
			return nil
		}
		return workspaceTrustMsg{w: w}
	}
}

// askTrust asks once whether what the workspace brings may take effect,
// listing it. The question is guarded: a key typed ahead never answers it.
func (m Model) askTrust(w runner.WorkspaceTrust) Model {
	text := w.Summary() + "\n"
	if w.Changed {
		text = "Changed since you trusted it. " + text
	}
	text += "Until it is trusted, none of it applies"
	if w.Config != "" {
		text += ": the project config waits for trust"
	}
	text += ".\nAllowed, steer asks again only when one of these files changes."
	items := []dialog.Item{{Label: "Allow", Shortcut: "a", Msg: trustWorkspaceMsg{w: w}},
		{Label: "Not now", Shortcut: "n", Msg: notNowMsg{w: w}}}
	return m.openDialog(dialog.NewQuestion(m.dialogDeps(), "Trust this workspace?", text, items, nil))
}
