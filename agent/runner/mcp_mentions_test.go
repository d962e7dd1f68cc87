package runner

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/agent/runner/mention"
)

// TestResourceMentions: which @-mentions name a server's resource, and
// which uri each reads.
func TestResourceMentions(t *testing.T) {
	servers := []MCPServer{{Name: "srv"}, {Name: "files"}}
	known := []mention.Resource{
		{Server: "srv", URI: "test://readme"},
		{Server: "files", URI: "file:///{path}", Template: true},
		{Server: "srv", URI: "test://items/{id}", Template: true},
	}
	cases := []struct {
		text string
		want []resourceRef
	}{
		{"plain text @someone", nil},
		{"@main.go and a@srv:test://readme", nil},
		{"@other:test://readme", nil},
		{"@srv:", nil},
		{"@srv:test://readme", []resourceRef{{"srv", "test://readme"}}},
		{"see @srv:test://readme.", []resourceRef{{"srv", "test://readme"}}},
		{"@srv:test://readme @srv:test://readme", []resourceRef{{"srv", "test://readme"}}},
		{"@files:file:///etc/hosts, please", []resourceRef{{"files", "file:///etc/hosts"}}},
		{"@srv:test://items/7! @srv:test://unlisted", []resourceRef{{"srv", "test://items/7"}, {"srv", "test://unlisted"}}},
		{`@"srv:test://readme"`, []resourceRef{{"srv", "test://readme"}}},
	}
	for _, c := range cases {
		got := resourceMentions(c.text, servers, known)
		if len(got) != len(c.want) {
			t.Errorf("%q: %v, want %v", c.text, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: %v, want %v", c.text, got, c.want)
			}
		}
	}
}

// TestTemplateMatches: a template's expressions stand for one or more
// characters, slashes among them.
func TestTemplateMatches(t *testing.T) {
	cases := []struct {
		template, uri string
		want          bool
	}{
		{"file:///{path}", "file:///etc/hosts", true},
		{"file:///{path}", "file:///", false},
		{"test://items/{id}", "test://items/7", true},
		{"test://items/{id}", "test://other/7", false},
		{"repo://{owner}/{name}/issues", "repo://a/b/issues", true},
		{"repo://{owner}/{name}/issues", "repo://a/b/pulls", false},
		{"db://{+path}.json", "db://x.y/z.json", true},
	}
	for _, c := range cases {
		if got := templateMatches(c.template, c.uri); got != c.want {
			t.Errorf("%s ~ %s: %v, want %v", c.template, c.uri, got, c.want)
		}
	}
}

// TestResourceBlocks: text with its uri and a chip, images as images,
// other binary data as a note, long text cut.
func TestResourceBlocks(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	blocks, err := resourceBlocks("srv", "test://x", []MCPResourceContent{
		{URI: "test://x", Text: "hello"},
		{URI: "test://x.png", MIMEType: "image/png", Blob: png},
		{URI: "test://x.bin", MIMEType: "application/octet-stream", Blob: []byte{0, 1, 2}},
		{Text: strings.Repeat("a", mention.MaxTextBytes+10)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 4 {
		t.Fatalf("blocks: %+v", blocks)
	}
	if b := blocks[0]; b.Text != "<resource server=\"srv\" uri=\"test://x\">\nhello\n</resource>" || b.Attached.Path != "srv:test://x" || b.Attached.Size != 5 {
		t.Errorf("text: %+v", b)
	}
	if b := blocks[1]; b.Type != agent.ContentImage || b.MimeType != "image/png" || b.Data != base64.StdEncoding.EncodeToString(png) || b.Attached.Path != "srv:test://x.png" {
		t.Errorf("image: %+v", b)
	}
	if b := blocks[2]; !strings.Contains(b.Text, "[3 B of binary data (application/octet-stream): not attached]") {
		t.Errorf("binary: %+v", b)
	}
	if b := blocks[3]; !strings.Contains(b.Text, "[cut: the first") || b.Attached.Path != "srv:test://x" || len(b.Text) > mention.MaxTextBytes+200 {
		t.Errorf("long text: %d bytes, chip %+v", len(b.Text), b.Attached)
	}
}

// TestAttachMCPResources: a message's @srv:uri mentions are read from the
// server, a listed resource and a template's, as steer run and the TUI
// attach them; a resource the server cannot read is an error naming it.
func TestAttachMCPResources(t *testing.T) {
	m := settledMCP(t)
	rt := newRuntime(t, nil, agenttest.NewScript(), Options{MCP: m})
	if err := rt.WaitMCP(context.Background()); err != nil {
		t.Fatal(err)
	}
	blocks, err := rt.Attach(context.Background(), "compare @srv:test://readme with @srv:test://items/7.", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 {
		t.Fatalf("blocks: %+v", blocks)
	}
	if b := blocks[0]; !strings.Contains(b.Text, "read me") || b.Attached.Path != "srv:test://readme" {
		t.Errorf("resource: %+v", b)
	}
	if b := blocks[1]; !strings.Contains(b.Text, "item test://items/7") || b.Attached.Path != "srv:test://items/7" {
		t.Errorf("template: %+v", b)
	}
	got := rt.MentionResources()
	if len(got) != 2 || got[0].Ref() != "srv:test://readme" || !got[1].Template || got[1].Typed() != "srv:test://items/" {
		t.Errorf("the finder's resources: %+v", got)
	}
	if _, err := rt.Attach(context.Background(), "@srv:nope://x", nil); err == nil || !strings.Contains(err.Error(), "@srv:nope://x") {
		t.Errorf("an unreadable resource: %v", err)
	}
}
