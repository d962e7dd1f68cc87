package export

import (
	"bufio"
	"fmt"
	"html"

	"github.com/steer-tui/steer/agent/tools"
)

// The session's todo list (Session.Todo) opens the Markdown and HTML
// exports, under the header, as the rendered lines the model sees
// ("[x] done", "[~] doing", "[ ] pending"); a session without one shows
// nothing. JSONL needs no line of it: the list is read again from the
// transcript it carries.

// todoHeading names the list's section.
const todoHeading = "Todo"

func writeMarkdownTodo(w *bufio.Writer, l tools.TodoList, r *Redactor) {
	if len(l.Items) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## %s (%d/%d done)\n", todoHeading, l.Done(), len(l.Items))
	writeFenced(w, "text", r.String(l.Render()))
}

func (p *page) todo(l tools.TodoList) {
	if len(l.Items) == 0 {
		return
	}
	fmt.Fprintf(p.w, "<section class=\"todo\">\n<h2>%s (%d/%d done)</h2>\n<pre>%s</pre>\n</section>\n",
		todoHeading, l.Done(), len(l.Items), html.EscapeString(p.r.String(l.Render())))
}
