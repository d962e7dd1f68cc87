package tui

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/command"
	"github.com/steer-tui/steer/tui/msgs"
)

// The MCP servers' prompts are slash commands, /<server>:<prompt>, which
// come and go with the servers: the list is read at start and again after
// each change the runtime reports (mcpChangedMsg, mcpwatch.go), and replaces the MCP part of the registry's
// dynamic commands and the editor's completions (syncDynamic, skills.go). Running one fetches the
// prompt's messages and sends them as if typed (steering while a run is
// active; held.go lets it through at once): their text as the message,
// their images as images, embedded resources as text.

// ServerPrompts are the MCP servers' prompts; *runner.Host has them
// (host_mcp.go). The methods are called from tea.Cmd goroutines.
type ServerPrompts interface {
	MCPPrompts() []runner.MCPPrompt
	// GetMCPPrompt expands a prompt with its arguments; it does IO.
	GetMCPPrompt(ctx context.Context, server, name string, args map[string]string) ([]runner.MCPPromptMessage, error)
}

// promptsListedMsg is the servers' prompts as read.
type promptsListedMsg struct{ prompts []runner.MCPPrompt }

// runPromptMsg asks to run prompt p with args; typed is the command line
// as the user typed it, given back if it cannot be sent.
type runPromptMsg struct {
	p     runner.MCPPrompt
	args  map[string]string
	typed string
}

// loadPrompts reads the servers' prompts. The replies come in order on
// the ordered lane, so the last one read is the one kept.
func (m Model) loadPrompts() Model {
	rt := m.rt
	m.calls.submit(call{run: func() tea.Msg { return promptsListedMsg{prompts: rt.MCPPrompts()} }})
	return m
}

// handlePromptsListed makes the prompts dynamic commands, beside the
// library's (skills.go).
func (m Model) handlePromptsListed(msg promptsListedMsg) (Model, tea.Cmd) {
	m.promptCommands = make([]command.Command, len(msg.prompts))
	for i, p := range msg.prompts {
		m.promptCommands[i] = promptCommandOf(p)
	}
	m.syncDynamic()
	return m, nil
}

// promptCommandOf is prompt p as a slash command.
func promptCommandOf(p runner.MCPPrompt) command.Command {
	summary := oneLine(p.Description, 80)
	if summary == "" {
		summary = oneLine(p.Title, 80)
	}
	if summary == "" {
		summary = "MCP prompt of " + p.Server
	}
	return command.Command{Name: promptCommand(p), Args: promptArgsHint(p), Summary: summary,
		Run: func(line string) tea.Msg {
			args, err := parsePromptArgs(p, line)
			if err != nil {
				return msgs.HintMsg{Text: err.Error()}
			}
			return runPromptMsg{p: p, args: args, typed: strings.TrimSpace("/" + promptCommand(p) + " " + line)}
		}}
}

// handleRunPrompt fetches the prompt and sends it as steering (a run
// starts when none is active); on failure the command line comes back
// into the editor with the reason.
func (m Model) handleRunPrompt(msg runPromptMsg) (Model, tea.Cmd) {
	rt := m.rt
	m.calls.submit(call{unsent: msg.typed, run: func() tea.Msg {
		ctx := context.Background()
		got, err := rt.GetMCPPrompt(ctx, msg.p.Server, msg.p.Name, msg.args)
		if err == nil {
			text, images := promptMessage(msg.p, got)
			_, _, err = rt.Steer(ctx, text, images...)
		}
		if err != nil {
			back := agent.QueueItem{Text: msg.typed, Kind: agent.QueueSteer}
			return msgs.ItemsTakenBackMsg{Items: []agent.QueueItem{back}, Reason: "not sent: " + err.Error(), Unsent: true}
		}
		return nil
	}})
	return m.updateChat(msgs.ScrollMsg{ToEnd: true})
}

// promptMessage is what a prompt's messages send: their text joined by
// blank lines (an assistant's marked as such, since the message is the
// user's), their images as images, each with a chip naming the prompt.
// A prompt of images alone is sent with its command as the text.
func promptMessage(p runner.MCPPrompt, got []runner.MCPPromptMessage) (string, []agent.Content) {
	var texts []string
	var images []agent.Content
	for _, pm := range got {
		c := pm.Content
		if c.Type == agent.ContentImage {
			c.Attached = agent.Attachment{Path: fmt.Sprintf("%s image %d", promptCommand(p), len(images)+1), Size: decodedSize(c.Data)}
			images = append(images, c)
			continue
		}
		if c.Text == "" {
			continue
		}
		if pm.Role == "assistant" {
			texts = append(texts, "(assistant) "+c.Text)
		} else {
			texts = append(texts, c.Text)
		}
	}
	text := strings.Join(texts, "\n\n")
	if text == "" {
		text = "/" + promptCommand(p)
	}
	return text, images
}

// decodedSize is how many bytes base64 data holds.
func decodedSize(data string) int64 {
	pad := len(data) - len(strings.TrimRight(data, "="))
	return int64(len(data)/4*3 - pad)
}
