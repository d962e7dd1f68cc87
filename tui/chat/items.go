package chat

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner/mention"
	"github.com/steer-tui/steer/tui/sanitize"
	"github.com/steer-tui/steer/tui/theme"
)

// renderCtx is what an item needs to render itself at one width.
type renderCtx struct {
	width    int // columns available to the item
	st       *theme.ChatStyles
	md       *markdown
	spinner  string    // the current spinner frame, for running tools
	now      time.Time // for the elapsed time of running tools
	allowSGR bool      // keep SGR colours in tool output
}

// item is one entry of the transcript. render returns its lines at rc.width;
// the entry caches them until the item or the width changes.
type item interface {
	render(rc *renderCtx) []string
}

// expander is an item the user can select and expand or collapse.
type expander interface {
	item
	expanded() bool
	setExpanded(bool)
}

// entry caches an item's rendered lines for one width.
type entry struct {
	it    item
	lines []string
	width int  // the width lines were rendered at
	dirty bool // the item changed since
	index int  // position in the transcript
}

func (e *entry) ensure(rc *renderCtx) []string {
	if e.dirty || e.width != rc.width || e.lines == nil {
		e.lines = e.it.render(rc)
		if e.lines == nil {
			e.lines = []string{}
		}
		e.width, e.dirty = rc.width, false
	}
	return e.lines
}

// userItem is a message the user sent; label names how it arrived
// ("steer", "follow-up") when it was injected from the queue. The files
// attached to it show as chips under its text, never their content.
type userItem struct {
	text, label string
	attached    []agent.Attachment
}

func (u *userItem) render(rc *renderCtx) []string {
	out := u.renderText(rc)
	if chips := attachmentChips(u.attached); chips != "" {
		for _, l := range wrapLines(sanitize.String(chips, sanitize.Options{}), max(rc.width-2, 1)) {
			out = append(out, "  "+rc.st.Attachment.Render(l))
		}
	}
	return out
}

func (u *userItem) renderText(rc *renderCtx) []string {
	text := sanitize.String(u.text, sanitize.Options{})
	lines := wrapLines(text, max(rc.width-2, 1))
	out := make([]string, len(lines))
	for i, l := range lines {
		prefix := "  "
		if i == 0 {
			prefix = rc.st.UserPrompt.Render("❯") + " "
		}
		out[i] = prefix + rc.st.UserText.Render(l)
	}
	if u.label != "" {
		tag := " " + rc.st.UserLabel.Render("("+u.label+")")
		if ansi.StringWidth(out[len(out)-1]+tag) <= rc.width {
			out[len(out)-1] += tag
		} else {
			out = append(out, "  "+tag[1:])
		}
	}
	return out
}

// noticeKind picks a notice's style.
type noticeKind int

const (
	noticeInfo noticeKind = iota
	noticeError
)

// noticeItem is a line from steer itself: a new session, a model change.
type noticeItem struct {
	text string
	kind noticeKind
}

func (n *noticeItem) render(rc *renderCtx) []string {
	style := rc.st.Notice
	if n.kind == noticeError {
		style = rc.st.Error
	}
	lines := wrapLines(sanitize.String(n.text, sanitize.Options{}), rc.width)
	for i, l := range lines {
		lines[i] = style.Render(l)
	}
	return lines
}

// assistantItem is one assistant message: its thinking, its markdown text
// and how it ended. Its tool calls are separate toolItems.
type assistantItem struct {
	thinking     string
	showThinking bool
	text         stream
	streaming    bool
	stop         agent.StopReason
	errMsg       string
}

// thinkingTail is how many lines of thinking show while it streams.
const thinkingTail = 3

func (a *assistantItem) expanded() bool     { return a.showThinking }
func (a *assistantItem) setExpanded(v bool) { a.showThinking = v }

// update takes the content of a message snapshot; it reports a change.
func (a *assistantItem) update(m agent.Message) bool {
	var text, thinking strings.Builder
	for _, c := range m.Content {
		switch c.Type {
		case agent.ContentText:
			if text.Len() > 0 && c.Text != "" {
				text.WriteString("\n\n")
			}
			text.WriteString(c.Text)
		case agent.ContentThinking:
			if thinking.Len() > 0 && c.Thinking != "" {
				thinking.WriteString("\n\n")
			}
			thinking.WriteString(c.Thinking)
		}
	}
	changed := a.text.set(text.String())
	if t := thinking.String(); t != a.thinking {
		a.thinking, changed = t, true
	}
	return changed
}

// finish records how the message ended and asks for its exact render.
func (a *assistantItem) finish(m agent.Message) {
	a.update(m)
	a.streaming, a.stop, a.errMsg = false, m.StopReason, m.ErrorMessage
	a.text.end()
}

func (a *assistantItem) render(rc *renderCtx) []string {
	var out []string
	if a.thinking != "" {
		out = append(out, a.renderThinking(rc)...)
	}
	if text := a.text.lines(rc.md); len(text) > 0 {
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, text...)
	}
	switch a.stop {
	case agent.StopReasonAborted:
		marker := "⏹ interrupted"
		if why := sanitize.String(a.errMsg, sanitize.Options{}); why != "" && why != agent.AbortedMessage {
			marker += ": " + why // a timeout, a quit, a signal: not the user's Esc
		}
		for i, l := range wrapLines(marker, rc.width) {
			if i > 0 {
				l = "  " + l
			}
			out = append(out, rc.st.Interrupted.Render(l))
		}
	case agent.StopReasonError:
		msg := sanitize.String(a.errMsg, sanitize.Options{})
		if msg == "" {
			msg = "the response failed"
		}
		for i, l := range wrapLines("✗ error: "+msg, rc.width) {
			if i > 0 {
				l = "  " + l
			}
			out = append(out, rc.st.Error.Render(l))
		}
	case agent.StopReasonLength:
		out = append(out, rc.st.Notice.Render("… cut off: the output limit was reached"))
	}
	return out
}

func (a *assistantItem) renderThinking(rc *renderCtx) []string {
	live := a.streaming && strings.TrimSpace(a.text.src) == ""
	if !a.showThinking && !live {
		words := len(strings.Fields(a.thinking))
		return []string{rc.st.ThinkingHeader.Render(fmt.Sprintf("∴ thought · %d words", words))}
	}
	src := a.thinking
	if !a.showThinking && len(src) > 800 {
		src = src[len(src)-800:] // the tail is all that shows
	}
	lines := wrapLines(sanitize.String(src, sanitize.Options{}), max(rc.width-2, 1))
	if !a.showThinking && len(lines) > thinkingTail {
		lines = lines[len(lines)-thinkingTail:]
	}
	out := []string{rc.st.ThinkingHeader.Render("∴ thinking…")}
	if a.showThinking {
		out[0] = rc.st.ThinkingHeader.Render("∴ thinking")
	}
	for _, l := range lines {
		out = append(out, "  "+rc.st.Thinking.Render(l))
	}
	return out
}

// attachmentChips is one line of chips: "📎 README.md · 2.1 KB  📎 …".
func attachmentChips(as []agent.Attachment) string {
	chips := make([]string, len(as))
	for i, a := range as {
		chips[i] = mention.Chip(a)
	}
	return strings.Join(chips, "  ")
}
