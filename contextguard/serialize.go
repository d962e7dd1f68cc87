package contextguard

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/steer-tui/steer/agent"
)

// summaryPieceChars caps each tool result, tool-call arguments and thinking
// block in what the summariser reads: it needs their gist, head and tail,
// not every byte.
const summaryPieceChars = 2_000

// summaryCut keeps head and tail of every capped piece.
var summaryCut = cutPolicy{minKeep: 500, alwaysTail: true}

// chunk is one message rendered for the summariser, with its size.
type chunk struct {
	text   string
	tokens int
}

// serializeForSummary renders msgs as labelled lines, one chunk per message:
// "[User]: …", "[Assistant]: …", "[Assistant tool call]: read {…}",
// "[Tool result read]: …", "[Earlier summary]: …". Labels instead of chat
// turns keep the summariser from continuing the conversation.
func serializeForSummary(msgs []agent.Message) []chunk {
	var out []chunk
	for _, m := range msgs {
		if text := serializeMessage(m); text != "" {
			out = append(out, chunk{text: text, tokens: chunkTokens(text, m.Role)})
		}
	}
	return out
}

func serializeMessage(m agent.Message) string {
	if summary, ok := SummaryText(m); ok {
		return "[Earlier summary]:\n" + summary
	}
	var lines []string
	add := func(label, text string) {
		if text = strings.TrimSpace(text); text != "" {
			lines = append(lines, label+": "+text)
		}
	}
	switch m.Role {
	case agent.RoleUser:
		add("[User]", contentText(m.Content, false))
	case agent.RoleToolResult:
		label := "[Tool result " + m.ToolName + "]"
		if m.IsError {
			label = "[Tool result " + m.ToolName + " (error)]"
		}
		add(label, contentText(m.Content, true))
	case agent.RoleAssistant:
		for _, c := range m.Content {
			switch c.Type {
			case agent.ContentThinking:
				add("[Assistant thinking]", capPiece(c.Thinking))
			case agent.ContentText:
				add("[Assistant]", c.Text)
			case agent.ContentToolCall:
				args, _ := json.Marshal(c.Arguments)
				add("[Assistant tool call]", c.Name+" "+capPiece(string(args)))
			}
		}
		if m.StopReason == agent.StopReasonError || m.StopReason == agent.StopReasonAborted {
			add(fmt.Sprintf("[Assistant %s]", m.StopReason), m.ErrorMessage)
		}
	}
	return strings.Join(lines, "\n")
}

// contentText joins text blocks and marks images; capped cuts the text of a
// tool result.
func contentText(blocks []agent.Content, capped bool) string {
	var parts []string
	for _, c := range blocks {
		switch c.Type {
		case agent.ContentText:
			if capped {
				parts = append(parts, capPiece(c.Text))
			} else {
				parts = append(parts, c.Text)
			}
		case agent.ContentImage:
			parts = append(parts, "[image]")
		}
	}
	return strings.Join(parts, "\n")
}

func capPiece(s string) string { return truncateWith(s, summaryPieceChars, summaryCut) }

// chunkTokens measures a chunk as the guard would the message it renders:
// tool output at its denser rate.
func chunkTokens(text string, role agent.Role) int {
	perToken := float64(textBytesPerToken)
	if role == agent.RoleToolResult {
		perToken = toolResultBytesPerToken
	}
	return withMargin(blockOverheadTokens + float64(len(text))/perToken)
}

// fitChunks drops the oldest chunks until the rest fit budget tokens; a last
// chunk that alone is too big is cut to fit. omitted counts dropped chunks.
func fitChunks(chunks []chunk, budget int) (kept []chunk, omitted int) {
	total := 0
	for _, c := range chunks {
		total += c.tokens
	}
	for len(chunks) > 1 && total > budget {
		total -= chunks[0].tokens
		chunks = chunks[1:]
		omitted++
	}
	if len(chunks) == 1 && total > budget {
		last := chunks[0]
		last.text = truncateWith(last.text, tokensToBytes(max(budget, 0), toolResultBytesPerToken), summaryCut)
		last.tokens = chunkTokens(last.text, agent.RoleToolResult)
		chunks = []chunk{last}
	}
	return chunks, omitted
}
