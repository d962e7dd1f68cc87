package runner

import (
	"context"
	"encoding/base64"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner/mention"
	"github.com/steer-tui/steer/agent/tools"
)

// An @-mention names an MCP resource when it is "@server:uri" for a
// configured server (ready or not: reading a server that is not ready says
// why). The uri is one the server lists, one its templates match (a
// template "file:///{path}" takes "@files:file:///etc/hosts"), or any
// other the user typed, which the server is asked for as it is. Sentence
// punctuation after a listed uri ("see @s:doc://a.") is not part of it.

// Attach reads what text attaches: the files and directories it mentions
// and paths beside it (mention.Expand, in the session's workspace), then
// the MCP resources it mentions. A resource that cannot be read is an
// error naming it, and nothing is attached. Every front end (the TUI
// through the host, steer run) attaches alike.
func (r *Runtime) Attach(ctx context.Context, text string, paths []string) ([]agent.Content, error) {
	files, err := mention.Expand(ctx, r.Workspace(), text, paths)
	if err != nil {
		return nil, err
	}
	res, err := r.mcpDesk.attachResources(ctx, text)
	if err != nil {
		return nil, err
	}
	return append(files, res...), nil
}

// MentionResources are the ready servers' resources and templates as the
// @ finder offers them.
func (d *mcpDesk) MentionResources() []mention.Resource {
	if d.m == nil {
		return nil
	}
	var out []mention.Resource
	for _, r := range d.m.Resources() {
		out = append(out, mention.Resource{Server: r.Server, URI: r.URI, Name: r.Name})
	}
	for _, t := range d.m.ResourceTemplates() {
		out = append(out, mention.Resource{Server: t.Server, URI: t.URITemplate, Name: t.Name, Template: true})
	}
	return out
}

// attachResources reads each resource text mentions, once each, in order.
func (d *mcpDesk) attachResources(ctx context.Context, text string) ([]agent.Content, error) {
	if d.m == nil {
		return nil, nil
	}
	refs := resourceMentions(text, d.MCPServers(), d.MentionResources())
	var out []agent.Content
	for _, ref := range refs {
		contents, err := d.m.ReadResource(ctx, ref.server, ref.uri)
		if err != nil {
			return nil, fmt.Errorf("cannot attach @%s:%s: %w", ref.server, ref.uri, err)
		}
		blocks, err := resourceBlocks(ref.server, ref.uri, contents)
		if err != nil {
			return nil, err
		}
		out = append(out, blocks...)
	}
	return out, nil
}

// resourceRef is one resource a message mentions.
type resourceRef struct{ server, uri string }

// resourceMentions finds the resources text mentions (see the rule above),
// once each.
func resourceMentions(text string, servers []MCPServer, known []mention.Resource) []resourceRef {
	var out []resourceRef
	for _, m := range mention.Mentions(text) {
		name, uri, ok := strings.Cut(m, ":")
		if !ok || uri == "" || !slices.ContainsFunc(servers, func(s MCPServer) bool { return s.Name == name }) {
			continue
		}
		ref := resourceRef{server: name, uri: listedURI(name, uri, known)}
		if !slices.Contains(out, ref) {
			out = append(out, ref)
		}
	}
	return out
}

// listedURI is uri, or uri without the sentence punctuation after it when
// that is what the server lists (the longest such) or its templates match
// (the shortest: a template's variable would take the punctuation too).
func listedURI(server, uri string, known []mention.Resource) string {
	cands := []string{uri}
	for c := uri; len(c) > 1 && strings.ContainsRune(".,;:!?)]}'\"", rune(c[len(c)-1])); {
		c = c[:len(c)-1]
		cands = append(cands, c)
	}
	for _, c := range cands {
		if slices.ContainsFunc(known, func(r mention.Resource) bool { return r.Server == server && !r.Template && r.URI == c }) {
			return c
		}
	}
	for _, c := range slices.Backward(cands) {
		if slices.ContainsFunc(known, func(r mention.Resource) bool {
			return r.Server == server && r.Template && templateMatches(r.URI, c)
		}) {
			return c
		}
	}
	return uri
}

// templateVar is one {…} expression of an RFC 6570 template.
var templateVar = regexp.MustCompile(`\{[^}]*\}`)

// templateMatches reports whether uri is what template gives for some
// values of its variables: each expression stands for one or more
// characters, a reserved expansion ({+path}, {/path}) for any.
func templateMatches(template, uri string) bool {
	var b strings.Builder
	b.WriteString("^")
	last := 0
	for _, loc := range templateVar.FindAllStringIndex(template, -1) {
		b.WriteString(regexp.QuoteMeta(template[last:loc[0]]))
		b.WriteString(".+")
		last = loc[1]
	}
	b.WriteString(regexp.QuoteMeta(template[last:]) + "$")
	re, err := regexp.Compile(b.String())
	return err == nil && re.MatchString(uri)
}

// resourceBlocks are a read resource's contents as a message's blocks,
// each with its chip ("server:uri"): text with its uri around it (at most
// mention.MaxTextBytes), an image as an image, other binary data as a note.
func resourceBlocks(server, uri string, contents []MCPResourceContent) ([]agent.Content, error) {
	ref := server + ":" + uri
	if len(contents) == 0 {
		return []agent.Content{{Type: agent.ContentText, Attached: agent.Attachment{Path: ref},
			Text: fmt.Sprintf("<resource server=%q uri=%q>\n[empty]\n</resource>", server, uri)}}, nil
	}
	var out []agent.Content
	for _, c := range contents {
		cu := c.URI
		if cu == "" {
			cu = uri
		}
		at := agent.Attachment{Path: server + ":" + cu, Size: int64(len(c.Text) + len(c.Blob))}
		switch mime := tools.ImageType(c.Blob); {
		case c.Blob != nil && mime != "":
			if len(c.Blob) > tools.MaxImageBytes {
				return nil, fmt.Errorf("cannot attach @%s: the image is %s, more than the %s the providers accept",
					ref, mention.Size(int64(len(c.Blob))), mention.Size(tools.MaxImageBytes))
			}
			out = append(out, agent.Content{Type: agent.ContentImage, MimeType: mime, Attached: at,
				Data: base64.StdEncoding.EncodeToString(c.Blob)})
		case c.Blob != nil && c.Text == "":
			out = append(out, agent.Content{Type: agent.ContentText, Attached: at,
				Text: fmt.Sprintf("<resource server=%q uri=%q>\n[%s of binary data (%s): not attached]\n</resource>",
					server, cu, mention.Size(at.Size), c.MIMEType)})
		default:
			out = append(out, agent.Content{Type: agent.ContentText, Attached: at, Text: resourceText(server, cu, c.Text)})
		}
	}
	return out, nil
}

// resourceText is a text resource as the model reads it, cut at
// mention.MaxTextBytes with a note.
func resourceText(server, uri, text string) string {
	var note string
	if len(text) > mention.MaxTextBytes {
		note = fmt.Sprintf("[cut: the first %s of %s are attached]\n", mention.Size(mention.MaxTextBytes), mention.Size(int64(len(text))))
		text = strings.ToValidUTF8(text[:mention.MaxTextBytes], "")
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return fmt.Sprintf("<resource server=%q uri=%q>\n%s%s</resource>", server, uri, text, note)
}
