package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/steer-tui/steer/agent"
)

// Prompt is a server's prompt, for the composer's / commands
// (/<server>:<prompt>).
type Prompt struct {
	Server      string           `json:"server"`
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument is one argument a prompt takes.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required"`
}

// PromptMessage is one message a prompt expands to; Role is "user" or
// "assistant".
type PromptMessage struct {
	Role    string
	Content agent.Content
}

// Resource is a server's resource, for the composer's @ completion
// (@<server>:<uri>).
type Resource struct {
	Server      string `json:"server"`
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
}

// ResourceTemplate is a family of resources named by an RFC 6570 URI
// template whose variables the user fills in.
type ResourceTemplate struct {
	Server      string `json:"server"`
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
}

// ResourceContent is what reading a resource gave: Text, or Blob for
// binary contents.
type ResourceContent struct {
	URI      string
	MIMEType string
	Text     string
	Blob     []byte
}

// each calls fn with every ready server's lists, in configuration order.
func (m *Manager) each(fn func(name string, ls lists)) {
	m.mu.Lock()
	servers := append([]*server(nil), m.servers...)
	m.mu.Unlock()
	for _, s := range servers {
		s.mu.Lock()
		ls, ready := s.lists, s.state == StateReady
		s.mu.Unlock()
		if ready {
			fn(s.cfg.Name, ls)
		}
	}
}

// Prompts are the prompts of every ready server.
func (m *Manager) Prompts() []Prompt {
	var out []Prompt
	m.each(func(name string, ls lists) {
		for _, p := range ls.prompts {
			pr := Prompt{Server: name, Name: p.Name, Title: p.Title, Description: p.Description}
			for _, a := range p.Arguments {
				pr.Arguments = append(pr.Arguments, PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
			}
			out = append(out, pr)
		}
	})
	return out
}

// GetPrompt expands a server's prompt with its arguments.
func (m *Manager) GetPrompt(ctx context.Context, server, name string, args map[string]string) ([]PromptMessage, error) {
	s, cs, err := m.session(server)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.timeout())
	defer cancel()
	res, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("mcp server %s: prompt %s: %s", server, name, s.redacted(err))
	}
	out := make([]PromptMessage, len(res.Messages))
	for i, msg := range res.Messages {
		block, _ := contentBlock(msg.Content)
		out[i] = PromptMessage{Role: string(msg.Role), Content: block}
	}
	return out, nil
}

// Resources are the resources of every ready server.
func (m *Manager) Resources() []Resource {
	var out []Resource
	m.each(func(name string, ls lists) {
		for _, r := range ls.resources {
			out = append(out, Resource{Server: name, URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType})
		}
	})
	return out
}

// ResourceTemplates are the resource templates of every ready server.
func (m *Manager) ResourceTemplates() []ResourceTemplate {
	var out []ResourceTemplate
	m.each(func(name string, ls lists) {
		for _, t := range ls.templates {
			out = append(out, ResourceTemplate{Server: name, URITemplate: t.URITemplate, Name: t.Name, Title: t.Title,
				Description: t.Description, MIMEType: t.MIMEType})
		}
	})
	return out
}

// ReadResource reads a resource (a template's, once its variables are
// filled in) from a server.
func (m *Manager) ReadResource(ctx context.Context, server, uri string) ([]ResourceContent, error) {
	s, cs, err := m.session(server)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.timeout())
	defer cancel()
	res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, fmt.Errorf("mcp server %s: reading %s: %s", server, uri, s.redacted(err))
	}
	out := make([]ResourceContent, 0, len(res.Contents))
	for _, c := range res.Contents {
		if c != nil {
			out = append(out, ResourceContent{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text, Blob: c.Blob})
		}
	}
	return out, nil
}

// session is the named server and its session, when it is ready.
func (m *Manager) session(name string) (*server, *sdk.ClientSession, error) {
	s, err := m.server(name)
	if err != nil {
		return nil, nil, err
	}
	cs, err := s.ready()
	return s, cs, err
}
