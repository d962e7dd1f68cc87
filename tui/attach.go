package tui

import (
	"context"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/mention"
	"github.com/steer-tui/steer/tui/input"
)

// Mentions are the workspace's files for the editor's "@" and the reading
// of what a message attaches; *runner.Host has them (host_mentions.go). It
// is optional (see Options.Mentions).
type Mentions interface {
	// FileIndex returns the current workspace's index, its walk begun; the
	// editor calls it from tea.Cmd goroutines.
	FileIndex() *mention.Index
	// Attach reads the files text mentions and the paths beside it into
	// blocks for Steer and FollowUp. It does IO: it is called from the
	// call that sends them, so that they keep the order they were sent in.
	Attach(ctx context.Context, text string, paths []string) ([]agent.Content, error)
	// MentionResources are the MCP servers' resources and templates "@"
	// offers beside the files; the editor calls it from tea.Cmd goroutines.
	MentionResources() []mention.Resource
}

// filesOf is the editor's file index, or none without Mentions.
func filesOf(mn Mentions) input.Files {
	if mn == nil {
		return nil
	}
	return mn.FileIndex
}

// resourcesOf is the editor's MCP resources, or none without Mentions.
func resourcesOf(mn Mentions) input.Resources {
	if mn == nil {
		return nil
	}
	return mn.MentionResources
}

// readAttached reads what a message attaches; without Mentions, nothing.
func readAttached(mn Mentions, text string, paths []string) ([]agent.Content, error) {
	if mn == nil {
		return nil, nil
	}
	return mn.Attach(context.Background(), text, paths)
}

// attached keeps what an unsent input must give back to the editor: the
// pasted images of paths. When reading them failed, blocks is nil and
// their chips are made again from the paths alone.
func attached(blocks []agent.Content, paths []string) []agent.Content {
	if blocks != nil {
		return blocks
	}
	out := make([]agent.Content, len(paths))
	for i, p := range paths {
		out[i] = agent.Content{Type: agent.ContentImage, Attached: agent.Attachment{Path: p}}
	}
	return out
}

var _ Mentions = (*runner.Host)(nil)
