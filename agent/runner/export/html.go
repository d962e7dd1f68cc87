package export

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/lazyregexp"
)

// HTML writes s as one self-contained page that loads nothing from the
// network: every entry of the tree, the current branch shown and the others
// selectable from a list of branches, tool calls with their output and
// thinking in collapsed <details>, assistant Markdown rendered and code
// highlighted. All transcript text is escaped.
func HTML(w io.Writer, s Session, r *Redactor) error {
	t, err := buildTree(s)
	if err != nil {
		return err
	}
	p := &page{w: bufio.NewWriter(w), t: t, r: r, results: map[string][]*Entry{}, onPath: map[string]bool{}, msgs: map[string]agent.Message{}}
	for _, e := range t.path(s.Leaf) {
		p.onPath[e.ID] = true
	}
	for _, e := range t.order {
		if e.Type == TypeMessage && e.Message.Role == agent.RoleToolResult && e.Message.ToolCallID != "" {
			p.results[e.Message.ToolCallID] = append(p.results[e.Message.ToolCallID], e)
		}
	}
	p.head(s)
	for _, e := range t.order {
		p.entry(e)
	}
	fmt.Fprintf(p.w, "</main>\n<script>%s</script>\n</body>\n</html>\n", pageScript)
	return p.w.Flush()
}

// page is the state of one HTML write.
type page struct {
	w       *bufio.Writer
	t       *tree
	r       *Redactor
	results map[string][]*Entry // tool results by the call id they answer
	shown   map[string]bool     // results already written inside their call
	onPath  map[string]bool
	msgs    map[string]agent.Message // redacted once, so Count counts each secret once
}

// msg returns e's message, redacted.
func (p *page) msg(e *Entry) agent.Message {
	m, ok := p.msgs[e.ID]
	if !ok {
		m = p.r.message(*e.Message)
		p.msgs[e.ID] = m
	}
	return m
}

// esc redacts and escapes one transcript string.
func (p *page) esc(s string) string { return html.EscapeString(p.r.String(s)) }

func (p *page) head(s Session) {
	title := p.esc(s.Title)
	if title == "" {
		title = "Session " + html.EscapeString(s.ID)
	}
	fmt.Fprintf(p.w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"+
		"<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n"+
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"+
		"<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n<header>\n<h1>%s</h1>\n",
		csp, title, pageCSS, title)
	fmt.Fprintf(p.w, "<p>Session <code>%s</code> · model %s · created %s</p>\n",
		html.EscapeString(s.ID), html.EscapeString(s.Model), s.Created.UTC().Format("2006-01-02 15:04 UTC"))
	leaves := p.t.leaves()
	if len(leaves) > 0 {
		p.w.WriteString("<label>Branch <select id=\"branch\">\n")
		for i, l := range leaves {
			sel := ""
			if l.ID == s.Leaf {
				sel = " selected"
			}
			fmt.Fprintf(p.w, "<option value=\"%s\"%s>%d: %s</option>\n", html.EscapeString(l.ID), sel, i+1, p.branchName(l))
		}
		p.w.WriteString("</select></label>\n")
	}
	p.w.WriteString("</header>\n<main>\n")
	p.todo(s.Todo)
}

// branchName names a branch by its leaf id and its last user prompt.
func (p *page) branchName(leaf *Entry) string {
	for _, e := range slicesBackward(p.t.path(leaf.ID)) {
		if e.Type == TypeMessage && e.Message.Role == agent.RoleUser {
			text := []rune(p.msg(e).TextContent())
			if len(text) > 60 {
				text = append(text[:60], '…')
			}
			return html.EscapeString(leaf.ID) + " — " + html.EscapeString(string(text))
		}
	}
	return html.EscapeString(leaf.ID)
}

func slicesBackward(es []*Entry) []*Entry {
	out := make([]*Entry, len(es))
	for i, e := range es {
		out[len(es)-1-i] = e
	}
	return out
}

// open starts an entry's element; only the current branch is visible until
// the script runs.
func (p *page) open(e *Entry, class string) {
	if !p.onPath[e.ID] {
		class += " off"
	}
	fmt.Fprintf(p.w, "<div class=\"entry %s\" id=\"e-%s\" data-entry=\"%s\" data-parent=\"%s\">\n",
		class, html.EscapeString(e.ID), html.EscapeString(e.ID), html.EscapeString(e.ParentID))
}

func (p *page) entry(e *Entry) {
	if e.Type != TypeMessage {
		p.open(e, "marker")
		line := marker(e)
		if e.Type == TypeLabel {
			line += p.r.String(e.Label)
		}
		fmt.Fprintf(p.w, "<p>%s</p>\n", html.EscapeString(line))
		if e.Summary != "" {
			fmt.Fprintf(p.w, "<details><summary>summary</summary><pre>%s</pre></details>\n", p.esc(e.Summary))
		}
		p.w.WriteString("</div>\n")
		return
	}
	if p.shown[e.ID] {
		return // written inside its call
	}
	m := p.msg(e)
	if m.Role == agent.RoleToolResult {
		p.open(e, "tool")
		p.result(m)
		p.w.WriteString("</div>\n")
		return
	}
	role := "assistant"
	if m.Role == agent.RoleUser {
		role = "user"
	}
	p.open(e, role)
	fmt.Fprintf(p.w, "<div class=\"role\">%s</div>\n", role)
	for _, c := range m.Content {
		p.block(role, c)
	}
	if m.ErrorMessage != "" {
		fmt.Fprintf(p.w, "<p class=\"error\">%s</p>\n", html.EscapeString(m.ErrorMessage))
	}
	p.w.WriteString("</div>\n")
}

func (p *page) block(role string, c agent.Content) {
	switch c.Type {
	case agent.ContentText:
		if role == "user" {
			fmt.Fprintf(p.w, "<pre class=\"prompt\">%s</pre>\n", html.EscapeString(c.Text))
			return
		}
		p.w.WriteString(renderMarkdown(c.Text))
	case agent.ContentThinking:
		if c.Thinking != "" {
			fmt.Fprintf(p.w, "<details class=\"thinking\"><summary>thinking</summary><pre>%s</pre></details>\n", html.EscapeString(c.Thinking))
		}
	case agent.ContentToolCall:
		fmt.Fprintf(p.w, "<details class=\"call\"><summary>tool call: %s</summary>\n%s\n", html.EscapeString(c.Name), highlight(argsJSON(c.Arguments), "json"))
		for _, re := range p.results[c.ID] {
			if p.shown == nil {
				p.shown = map[string]bool{}
			}
			p.shown[re.ID] = true
			class := ""
			if !p.onPath[re.ID] {
				class = " off"
			}
			fmt.Fprintf(p.w, "<div class=\"part%s\" data-entry=\"%s\" data-parent=\"%s\">\n", class, html.EscapeString(re.ID), html.EscapeString(re.ParentID))
			p.result(p.msg(re))
			p.w.WriteString("</div>\n")
		}
		p.w.WriteString("</details>\n")
	case agent.ContentImage:
		p.image(c)
	}
}

// result writes a tool's output.
func (p *page) result(m agent.Message) {
	label := "output"
	if m.IsError {
		label = "error"
	}
	fmt.Fprintf(p.w, "<div class=\"role\">%s of %s</div><pre class=\"%s\">%s</pre>\n",
		label, html.EscapeString(m.ToolName), label, html.EscapeString(resultText(m)))
}

var (
	safeMime   = lazyregexp.Regexp{Expr: `^image/[a-z0-9.+-]+$`}
	safeBase64 = lazyregexp.Regexp{Expr: `^[A-Za-z0-9+/=\s]*$`}
)

// image writes an image block as a data: URL, or a note when its fields
// could break out of the attribute.
func (p *page) image(c agent.Content) {
	if !safeMime.Get().MatchString(c.MimeType) || !safeBase64.Get().MatchString(c.Data) {
		fmt.Fprintf(p.w, "<p>[image %s]</p>\n", html.EscapeString(c.MimeType))
		return
	}
	fmt.Fprintf(p.w, "<img alt=\"image\" src=\"data:%s;base64,%s\">\n", c.MimeType, strings.Join(strings.Fields(c.Data), ""))
}
