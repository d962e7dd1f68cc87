package runner

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/mcp"
	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/contextguard"
)

// The breakdown of the next request (/context, rpc `inspect
// {what:"context"}`): the same pieces the attempt loop puts together
// (attemptStream: the system prompt, the skills catalogue, the context
// files, the SessionStart hooks' context; the model's messages; the tool
// schemas), measured by the guard's own estimator, so that its parts add
// up to the guard's measure of the request — exactly, not nearly:
// contextguard.FixedParts shares the estimator's one rounding of the
// prompt and schemas among them, and messages are measured one by one as
// the estimator sums them.

// ContextPartKind says what a part of the request is.
type ContextPartKind string

// The kinds of ContextPart.
const (
	PartSystem       ContextPartKind = "system"
	PartSkills       ContextPartKind = "skills"
	PartContextFiles ContextPartKind = "contextFiles"
	PartSessionHook  ContextPartKind = "sessionHook"
	PartTool         ContextPartKind = "tool"
	PartMCPServer    ContextPartKind = "mcpServer"
	PartMessages     ContextPartKind = "messages"
	PartToolResult   ContextPartKind = "toolResult"
)

// ContextPart is one line of the breakdown: what it is, its size in tokens
// and its share of the window (0 when the window is unknown).
type ContextPart struct {
	Label  string          `json:"label"`
	Kind   ContextPartKind `json:"kind"`
	Tokens int             `json:"tokens"`
	Share  float64         `json:"share"`
	// Within marks a line that is part of a line above it (a large tool
	// result inside its message group): the total does not count it again.
	Within bool `json:"within,omitempty"`
}

// ContextBreakdown is the next request broken down: its parts in the
// order it sends them, the largest tool results within their message
// groups, and the guard's measure of it — Total is the sum of the parts
// that are not Within, which is the guard's Tokens.
type ContextBreakdown struct {
	Parts  []ContextPart `json:"parts"`
	Total  int           `json:"total"`
	Window int           `json:"window"`
	Budget int           `json:"budget"`
	Route  MeterRoute    `json:"route"`
}

// largestToolResults is how many of the largest tool results are named.
const largestToolResults = 3

// maxMessageGroups is how many lines the messages take at most: a longer
// session's turns are grouped into runs of turns.
const maxMessageGroups = 8

// ContextBreakdown breaks the next request down as it would be sent now.
// It reads the skills and the context files from disk, as the request
// will: call it off the TUI's Update.
func (r *Runtime) ContextBreakdown() ContextBreakdown {
	st := r.agent.State()
	pieces := r.promptPieces(r.opts.SystemPrompt)
	system := make([]string, len(pieces))
	for i, p := range pieces {
		system[i] = p.text
	}
	llm := agent.LLMContext{SystemPrompt: strings.Join(system, ""), Messages: agent.ForModel(st.Messages),
		Tools: r.agent.Tools().Specs()}
	b := r.keeper.run.budget(st.Model, agent.StreamOptions{})
	p := r.keeper.guard.Assess(llm, b)

	out := ContextBreakdown{Window: b.Window, Budget: p.Budget, Route: meterRoute(p.Route)}
	sysTokens, toolTokens := contextguard.FixedParts(system, llm.Tools)
	for i, piece := range pieces {
		if piece.text != "" {
			out.Parts = append(out.Parts, ContextPart{Label: piece.label, Kind: piece.kind, Tokens: sysTokens[i]})
		}
	}
	out.Parts = append(out.Parts, toolParts(llm.Tools, toolTokens)...)
	out.Parts = append(out.Parts, r.messageParts(llm.Messages)...)
	for i := range out.Parts {
		if !out.Parts[i].Within {
			out.Total += out.Parts[i].Tokens
		}
		if b.Window > 0 {
			out.Parts[i].Share = float64(out.Parts[i].Tokens) / float64(b.Window)
		}
	}
	return out
}

// promptPiece is one piece of the system prompt, with the separator that
// joins it to the one before: the pieces joined are the prompt.
type promptPiece struct {
	label, text string
	kind        ContextPartKind
}

// promptPieces cuts the prompt the attempt loop sends into its pieces, in
// its order: base, then the skills catalogue (library.withSkills), then
// the context files as they are on disk now and the SessionStart hooks'
// context (memory.prompt).
func (r *Runtime) promptPieces(base string) []promptPiece {
	out := []promptPiece{{label: "system prompt", kind: PartSystem, text: base}}
	if section := r.library.skillsSection(); section != "" {
		out = append(out, promptPiece{label: "skills", kind: PartSkills, text: strings.TrimPrefix(joinSkills(base, section), base)})
	}
	if r.memory.files != nil {
		files := r.memory.files.Load()
		if section := tools.ContextPrompt(files); section != "" {
			out = append(out, promptPiece{label: contextFilesLabel(files), kind: PartContextFiles, text: "\n\n" + section})
		}
	}
	if s := r.memory.started.Load(); s != nil {
		out = append(out, promptPiece{label: "SessionStart hook context", kind: PartSessionHook, text: "\n\n" + *s})
	}
	return out
}

// contextFilesLabel names the context files loaded.
func contextFilesLabel(files []tools.ContextFile) string {
	n := 0
	for _, f := range files {
		if f.Skipped == "" && f.Text != "" {
			n++
		}
	}
	return "context files (" + countOf(n, "file") + ")"
}

// toolParts is a line per tool, except that an MCP server's tools
// (mcp__SERVER__TOOL) share one line, where the server's first tool was.
func toolParts(specs []agent.ToolSpec, tokens []int) []ContextPart {
	var out []ContextPart
	servers := map[string]int{} // server → its line in out
	count := map[string]int{}
	for i, t := range specs {
		server, ok := mcpServerOf(t.Name)
		if !ok {
			out = append(out, ContextPart{Label: "tool " + t.Name, Kind: PartTool, Tokens: tokens[i]})
			continue
		}
		at, seen := servers[server]
		if !seen {
			at = len(out)
			servers[server] = at
			out = append(out, ContextPart{Kind: PartMCPServer})
		}
		out[at].Tokens += tokens[i]
		count[server]++
	}
	for server, at := range servers {
		out[at].Label = fmt.Sprintf("mcp server %s (%s)", server, countOf(count[server], "tool"))
	}
	return out
}

// mcpServerOf is the server of an MCP tool's name.
func mcpServerOf(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, mcp.ToolPrefix)
	if !ok {
		return "", false
	}
	server, _, ok := strings.Cut(rest, "__")
	return server, ok
}

// messageParts is the messages by turn (a turn starts at a user's
// message; what comes before the first, a compaction's summary, is its
// own group), in at most maxMessageGroups lines, each followed by those
// of the largest tool results that are in it, marked Within.
func (r *Runtime) messageParts(msgs []agent.Message) []ContextPart {
	type result struct {
		at, tokens int
		label      string
	}
	sizes := make([]int, len(msgs))
	var results []result
	turnOf := make([]int, len(msgs)) // 0: before the first turn
	turn := 0
	for i, m := range msgs {
		sizes[i] = r.keeper.estimator.Message(m)
		if m.Role == agent.RoleUser {
			turn++
		}
		turnOf[i] = turn
		if m.Role == agent.RoleToolResult {
			results = append(results, result{at: i, tokens: sizes[i],
				label: fmt.Sprintf("tool result %s %s (turn %d)", m.ToolName, m.ToolCallID, turn)})
		}
	}
	slices.SortStableFunc(results, func(a, b result) int { return cmp.Compare(b.tokens, a.tokens) })
	results = results[:min(len(results), largestToolResults)]
	slices.SortFunc(results, func(a, b result) int { return cmp.Compare(a.at, b.at) })

	var out []ContextPart
	per := max(1, (turn+maxMessageGroups-1)/maxMessageGroups) // turns a line
	for i := 0; i < len(msgs); {
		j, first := i, turnOf[i]
		last := first
		if first > 0 {
			last = min(turn, first+per-1)
		}
		part := ContextPart{Kind: PartMessages}
		for ; j < len(msgs) && turnOf[j] <= last && (first > 0 || turnOf[j] == 0); j++ {
			part.Tokens += sizes[j]
		}
		part.Label = groupLabel(first, last, j-i)
		out = append(out, part)
		for _, res := range results {
			if res.at >= i && res.at < j {
				out = append(out, ContextPart{Label: res.label, Kind: PartToolResult, Tokens: res.tokens, Within: true})
			}
		}
		i = j
	}
	return out
}

// groupLabel words a group of n messages, turns first to last (0: before
// the first turn).
func groupLabel(first, last, n int) string {
	msgs := countOf(n, "message")
	switch {
	case first == 0:
		return "before turn 1 (" + msgs + ")"
	case first == last:
		return fmt.Sprintf("turn %d (%s)", first, msgs)
	}
	return fmt.Sprintf("turns %d–%d (%s)", first, last, msgs)
}

// countOf is "1 tool", "3 tools".
func countOf(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// ContextBreakdown breaks the current session's next request down.
func (c *currentSession) ContextBreakdown() ContextBreakdown { return c.current().ContextBreakdown() }
