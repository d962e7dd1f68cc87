package headless

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
)

// DefaultToolOutputLimit is how much of one tool call's output `steer run`
// prints: enough to follow a build or a test run, not a flood.
const DefaultToolOutputLimit = 16 << 10

// outputPrefix opens every line of tool output, so that it reads apart from
// steer's own lines.
const outputPrefix = "  │ "

// toolOutput prints what tools do on stderr as it happens: a header line
// when a call starts, its output as it arrives — from the partial results
// of tool_execution_update, which hold the output so far, so only the part
// not yet printed is — and a status line when it ends. A command's final
// output is printed too, so that output that came after the last update is
// not lost; other tools (read, ls) show only their header and status.
type toolOutput struct {
	w     io.Writer
	clean func(string) string // makes text safe for a terminal; nil prints it as it is
	limit int                 // bytes of output printed per call
	calls map[string]*callOutput
}

// callOutput is what one call has printed so far.
type callOutput struct {
	seen    string // the output as of the last update
	updated bool   // an update arrived
	printed int    // bytes printed
	omitted int    // bytes past the limit, not printed
	inexact bool   // omitted is a guess: the output's window moved
	open    bool   // the last line printed may continue
}

func newToolOutput(w io.Writer, clean func(string) string, limit int) *toolOutput {
	if limit <= 0 {
		limit = DefaultToolOutputLimit
	}
	return &toolOutput{w: w, clean: clean, limit: limit, calls: map[string]*callOutput{}}
}

// event handles the tool events, the failovers, the retries, compactions
// and quarantines, and ignores the others.
func (o *toolOutput) event(ev agent.Event) {
	switch e := ev.(type) {
	case agent.Annotation:
		switch info := e.Data.(type) {
		case runner.AttemptInfo:
			if e.Kind == runner.AnnotationFailover {
				fmt.Fprintf(o.w, "↻ %s\n", info.Summary())
			}
		case runner.RetryStartInfo:
			fmt.Fprintf(o.w, "↻ %s\n", info.Summary(info.Delay()))
		case runner.CompactionEnd:
			fmt.Fprintf(o.w, "⟲ %s\n", info.Summary())
		case runner.QuarantineInfo:
			fmt.Fprintf(o.w, "⚠ %s\n", info.Summary())
		}
	case agent.ToolExecutionStart:
		o.calls[e.ToolCallID] = &callOutput{}
		fmt.Fprintf(o.w, "→ %s\n", o.header(e.ToolName, e.Args))
	case agent.ToolExecutionUpdate:
		c := o.call(e.ToolCallID)
		c.updated = true
		o.show(c, resultText(e.Partial))
	case agent.ToolExecutionEnd:
		c := o.call(e.ToolCallID)
		details, command := agent.CommandDetailsOf(e.Result.Details)
		if command || c.updated {
			o.show(c, resultText(e.Result))
		}
		if note := notShown(c, details); note != "" {
			fmt.Fprintf(o.w, "%s%s\n", outputPrefix, o.line(note))
		}
		delete(o.calls, e.ToolCallID)
		status := "ok"
		if e.IsError {
			status = "failed"
		}
		fmt.Fprintf(o.w, "← %s %s\n", o.line(e.ToolName), status)
	}
}

// notShown words what of a call's output was not printed, "" when all of
// it was. A command whose output was cut for the model says its whole size
// (its result holds only a head and a tail, with a note between them, of
// which the head is printed) and where the whole of it is kept.
func notShown(c *callOutput, d agent.CommandDetails) string {
	if d.Truncated && d.OutputBytes > 0 {
		note := fmt.Sprintf("[… %d more bytes not shown", max(0, d.OutputBytes-int64(c.printed)))
		if d.FullOutputPath != "" {
			note += "; the whole output is in " + d.FullOutputPath
		}
		return note + "]"
	}
	switch {
	case c.omitted > 0 && c.inexact:
		return "[… more output not shown]"
	case c.omitted > 0:
		return fmt.Sprintf("[… %d more bytes not shown]", c.omitted)
	}
	return ""
}

// call returns the call's state, starting it for an update or end whose
// start was not seen.
func (o *toolOutput) call(id string) *callOutput {
	c := o.calls[id]
	if c == nil {
		c = &callOutput{}
		o.calls[id] = c
	}
	return c
}

// show prints the part of out, the output so far, that c has not printed.
func (o *toolOutput) show(c *callOutput, out string) {
	part, exact := newPart(c.seen, out)
	c.seen = out
	c.inexact = c.inexact || !exact
	if part == "" {
		return
	}
	room := o.limit - c.printed
	if room <= 0 {
		c.omitted += len(part)
		return
	}
	if len(part) > room {
		cut := cutAt(part, room)
		c.omitted += len(part) - len(cut)
		part = cut
	}
	c.printed += len(part)
	if c.open && strings.HasPrefix(part, "\n") {
		part = part[1:] // the end of the line printed last
	}
	lines := strings.Split(part, "\n")
	c.open = !strings.HasSuffix(part, "\n")
	if !c.open {
		lines = lines[:len(lines)-1]
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(outputPrefix)
		b.WriteString(o.line(l))
		b.WriteByte('\n')
	}
	io.WriteString(o.w, b.String())
}

// newPart returns what out adds to seen, an earlier state of the same
// output. Tools keep a window of the latest output, so out is seen with
// some of its start dropped, plus what is new; exact is false when out does
// not continue seen at all (a window that moved past everything seen, or
// notes the tool rewrote), and then all of out is new.
func newPart(seen, out string) (part string, exact bool) {
	if strings.HasPrefix(out, seen) {
		return out[len(seen):], true
	}
	// out starts somewhere inside seen: try where its first bytes occur,
	// leftmost first (the longest overlap), then the last few positions,
	// for an overlap shorter than the probe.
	const probeLen, tries = 16, 64
	probe := out[:min(len(out), probeLen)]
	from := 0
	for range tries {
		i := strings.Index(seen[from:], probe)
		if i < 0 {
			break
		}
		d := from + i
		if strings.HasPrefix(out, seen[d:]) {
			return out[len(seen)-d:], true
		}
		from = d + 1
	}
	for d := max(from, len(seen)-probeLen+1); d < len(seen); d++ {
		if strings.HasPrefix(out, seen[d:]) {
			return out[len(seen)-d:], true
		}
	}
	return out, false
}

// cutAt shortens s to at most n bytes, at the last line end when there is
// one, else at a rune boundary.
func cutAt(s string, n int) string {
	if i := strings.LastIndexByte(s[:n], '\n'); i > 0 {
		return s[:i+1]
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// header is a call's one line: the tool and its main argument.
func (o *toolOutput) header(tool string, args map[string]any) string {
	arg := summarizeArgs(args)
	if i := strings.IndexByte(arg, '\n'); i >= 0 {
		arg = arg[:i] + " …"
	}
	const most = 200
	if len(arg) > most {
		arg = cutAt(arg, most) + "…"
	}
	return o.line(strings.TrimSpace(tool + " " + arg))
}

// line makes one line safe to print.
func (o *toolOutput) line(s string) string {
	if o.clean == nil {
		return s
	}
	return strings.ReplaceAll(o.clean(s), "\n", " ")
}

func resultText(r agent.ToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if c.Type == agent.ContentText {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

func summarizeArgs(args map[string]any) string {
	for _, key := range []string{"command", "path", "pattern"} {
		if v, ok := args[key].(string); ok {
			return v
		}
	}
	return ""
}
