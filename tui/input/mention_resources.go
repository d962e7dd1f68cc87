package input

import (
	"strings"

	"github.com/steer-tui/steer/agent/runner/mention"
)

// Resources gives the editor the MCP servers' resources and templates for
// "@" (runner.Host's MentionResources). It is called in Cmds only.
type Resources func() []mention.Resource

// withResources adds the resources matching q to the files a query found,
// ranked by the same scorer: after the files, or before them once q holds
// a ":" (the user is naming a server, "@everything:"). An empty q lists
// the workspace's top level alone.
func withResources(res mention.Result, rs Resources, q string) mention.Result {
	if rs == nil || q == "" {
		return res
	}
	found := mention.MatchResources(rs(), q, mentionLimit)
	if strings.Contains(q, ":") {
		res.Matches = append(found, res.Matches...)
	} else {
		res.Matches = append(res.Matches, found...)
	}
	return res
}

// resourceToken is what picking resource r writes in place of the
// "@word": its mention then a space, or a template's start up to its first
// variable, for the user to type the rest.
func resourceToken(r *mention.Resource) string {
	tok := mention.Token(r.Typed())
	if !r.Template {
		tok += " "
	}
	return tok
}

// mentionLabel is a match as the list shows it: a resource with its name.
func mentionLabel(m mention.Match) string {
	if m.Resource != nil && m.Resource.Name != "" {
		return m.Path + " · " + m.Resource.Name
	}
	return m.Path
}
