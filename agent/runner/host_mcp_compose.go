package runner

import (
	"context"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner/mention"
)

// The MCP servers are the process's, shared by the host's sessions: the
// host answers for them with its first runtime's part (mcp.go). These are
// what the composer uses: prompts as slash commands, resources as
// @-mentions.

// Attach reads what an input attaches in the current session: the files
// and directories text mentions, the paths beside it and the MCP resources
// it mentions (Runtime.Attach), for Steer's or FollowUp's images.
func (h *Host) Attach(ctx context.Context, text string, paths []string) ([]agent.Content, error) {
	return h.Current().Attach(ctx, text, paths)
}

// MCPPrompts are the ready servers' prompts (/<server>:<prompt>).
func (h *Host) MCPPrompts() []MCPPrompt { return h.first.MCPPrompts() }

// GetMCPPrompt expands a server's prompt with its arguments.
func (h *Host) GetMCPPrompt(ctx context.Context, server, name string, args map[string]string) ([]MCPPromptMessage, error) {
	return h.first.GetMCPPrompt(ctx, server, name, args)
}

// MentionResources are the ready servers' resources and templates for the
// @ finder.
func (h *Host) MentionResources() []mention.Resource { return h.first.MentionResources() }

// ReadMCPResource reads a resource from a server.
func (h *Host) ReadMCPResource(ctx context.Context, server, uri string) ([]MCPResourceContent, error) {
	return h.first.ReadMCPResource(ctx, server, uri)
}
