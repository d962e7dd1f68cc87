package mcp

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/steer-tui/steer/agent"
)

// result turns a tools/call result into what the model reads: text as
// text, images as image blocks, audio as a note (no provider takes it in
// a tool result), embedded resources by their text, links by their URI,
// and structuredContent as JSON text when nothing else carries text.
// isError results reach the model as errors.
func result(res *sdk.CallToolResult) agent.ToolResult {
	out := agent.ToolResult{IsError: res.IsError}
	hasText := false
	for _, c := range res.Content {
		block, isText := contentBlock(c)
		hasText = hasText || isText
		out.Content = append(out.Content, block)
	}
	if !hasText && res.StructuredContent != nil {
		if raw, err := json.Marshal(res.StructuredContent); err == nil {
			out.Content = append(out.Content, agent.Text(string(raw)))
		}
	}
	if len(out.Content) == 0 {
		out.Content = []agent.Content{agent.Text("(no output)")}
	}
	return out
}

// contentBlock is one content item as a block; isText says whether it
// carries the result's text (rather than an image or a note about it).
func contentBlock(c sdk.Content) (block agent.Content, isText bool) {
	switch c := c.(type) {
	case *sdk.TextContent:
		return agent.Text(c.Text), true
	case *sdk.ImageContent:
		return agent.Content{Type: agent.ContentImage, MimeType: c.MIMEType, Data: base64.StdEncoding.EncodeToString(c.Data)}, false
	case *sdk.AudioContent:
		return agent.Text(fmt.Sprintf("[audio %s, %d bytes: not shown]", c.MIMEType, len(c.Data))), false
	case *sdk.EmbeddedResource:
		return resourceBlock(c.Resource), true
	case *sdk.ResourceLink:
		return agent.Text(fmt.Sprintf("[resource %s: %s]", c.Name, c.URI)), true
	}
	return agent.Text(fmt.Sprintf("[content of an unknown kind %T]", c)), false
}

// resourceBlock is an embedded resource: its text, or a note for binary
// contents.
func resourceBlock(r *sdk.ResourceContents) agent.Content {
	switch {
	case r == nil:
		return agent.Text("[empty resource]")
	case r.Blob != nil && r.Text == "":
		return agent.Text(fmt.Sprintf("[resource %s (%s), %d bytes of binary data]", r.URI, r.MIMEType, len(r.Blob)))
	}
	return agent.Text(r.Text)
}
