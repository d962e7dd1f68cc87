package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/form"
	"github.com/steer-tui/steer/tui/msgs"
)

// The MCP servers on screen:
//
//	what                          effect
//	a server changed (mcpWatch)   the /mcp inspector reads again
//	/mcp → r, l                   RestartMCP, LoginMCP (the browser) in a Cmd
//	a server asks for input       a form dialog built from its schema; the
//	                              answer goes back to the waiting elicitor

// MCPServers is what the TUI asks of the runtime about MCP servers. The
// methods may block (a login waits for the browser): they are called from
// tea.Cmd goroutines and the MCP watch, never from Update.
type MCPServers interface {
	// SubscribeMCP calls fn, on some goroutine, after each change of a
	// server; fn must return quickly.
	SubscribeMCP(fn func()) (unsubscribe func())
	RestartMCP(name string) error
	// LoginMCP signs in to a remote server in the browser and reconnects
	// it; it returns once the user finished or ctx ends.
	LoginMCP(ctx context.Context, name string) error
	// SetMCPElicitor makes fn answer the servers' requests for input; nil
	// declines them.
	SetMCPElicitor(fn runner.MCPElicitor)
}

// mcpLoginWait bounds a sign-in: the user has that long in the browser.
const mcpLoginWait = 10 * time.Minute

// elicitTagPrefix starts the tags of the elicitations' form dialogs.
const elicitTagPrefix = "mcp-elicit:"

// mcpMsg is a message of this file's: the root routes them all here.
type mcpMsg interface{ mcp() }

// mcpChangedMsg says an MCP server changed (state, tools, prompts).
type mcpChangedMsg struct{}

// mcpDoneMsg says how a restart, a login or a trust went, in words.
type mcpDoneMsg struct {
	what string
	err  error
}

// elicitationMsg is a server's request for input; its answer goes on
// reply, which holds one.
type elicitationMsg struct {
	id    string
	req   runner.MCPElicitation
	reply chan<- runner.MCPElicitAnswer
}

// elicitationEndedMsg says the request id waits no more (the server gave
// up on it): its form closes.
type elicitationEndedMsg struct{ id string }

// elicitAnsweredMsg is the user's answer to a request for input.
type elicitAnsweredMsg struct {
	reply  chan<- runner.MCPElicitAnswer
	answer runner.MCPElicitAnswer
}

func (mcpChangedMsg) mcp()       {}
func (mcpDoneMsg) mcp()          {}
func (elicitationMsg) mcp()      {}
func (elicitationEndedMsg) mcp() {}
func (elicitAnsweredMsg) mcp()   {}

// routeMCP handles the MCP messages.
func (m Model) routeMCP(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case mcpChangedMsg:
		return m.reloadInspector(msgs.InspectMCP).loadPrompts(), nil
	case msgs.RestartMCPMsg:
		return m.handleRestartMCP(msg.Server)
	case msgs.LoginMCPMsg:
		return m.handleLoginMCP(msg.Server)
	case mcpDoneMsg:
		m = m.reloadInspector(msgs.InspectMCP)
		if msg.err != nil {
			return m.updateStatus(msgs.ErrorMsg{Action: msg.what, Err: msg.err})
		}
		return m.hint(msg.what)
	case elicitationMsg:
		return m.handleElicitation(msg)
	case elicitationEndedMsg:
		if !m.hasDialog(msg.id) {
			return m, nil
		}
		return m.dropDialog(msg.id).hint("the MCP server withdrew its request for input")
	case elicitAnsweredMsg:
		select {
		case msg.reply <- msg.answer: // it holds one: the first answer is the answer
		default:
		}
	}
	return m, nil
}

func (m Model) handleRestartMCP(name string) (Model, tea.Cmd) {
	rt := m.rt
	return m, func() tea.Msg { return mcpDoneMsg{what: "restart " + name, err: rt.RestartMCP(name)} }
}

// handleLoginMCP signs in to a server in the browser; it may take the
// user minutes, so it runs in a Cmd of its own, not on the calls' lanes.
func (m Model) handleLoginMCP(name string) (Model, tea.Cmd) {
	rt := m.rt
	m, hint := m.hint("signing in to " + name + " in the browser…")
	return m, tea.Batch(hint, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), mcpLoginWait)
		defer cancel()
		err := rt.LoginMCP(ctx, name)
		return mcpDoneMsg{what: "sign in to " + name, err: err}
	})
}

// handleElicitation opens the form a server's request for input asks for.
// A schema no form can ask for is declined, and the user told why.
func (m Model) handleElicitation(msg elicitationMsg) (Model, tea.Cmd) {
	fields, err := form.FromSchema(msg.req.Schema)
	if err != nil {
		msg.reply <- runner.MCPElicitAnswer{Action: runner.MCPElicitDecline}
		return m.updateChat(msgs.NoteMsg{Text: fmt.Sprintf("%s asked for input steer cannot ask for (declined): %v", msg.req.Server, err)})
	}
	reply := msg.reply
	answer := func(action string) tea.Msg {
		return elicitAnsweredMsg{reply: reply, answer: runner.MCPElicitAnswer{Action: action}}
	}
	submit := func(content map[string]any) tea.Msg {
		return elicitAnsweredMsg{reply: reply, answer: runner.MCPElicitAnswer{Action: runner.MCPElicitAccept, Content: content}}
	}
	f := form.New(m.styles.Dialog, m.formKeys(), fields)
	title := "MCP " + msg.req.Server + " asks"
	d := dialog.NewForm(m.dialogDeps(), title, strings.TrimSpace(msg.req.Message), f, submit,
		answer(runner.MCPElicitDecline), answer(runner.MCPElicitCancel))
	return m.openDialog(d.WithTag(msg.id)), nil
}
