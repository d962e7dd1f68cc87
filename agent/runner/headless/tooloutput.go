package headless

import (
	"fmt"
	"io"
	"strings"
	"time"
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
	// live counts a cooldown wait down on a terminal (clean is set there);
	// waiting is that countdown while it runs.
	live       bool
	waiting    *countdown
	stopTicker func()
}

// stopCountdown ends a cooldown's live countdown, if one runs.
func (o *toolOutput) stopCountdown() {
	if o.waiting != nil {
		o.waiting.stop()
		o.stopTicker()
		o.waiting, o.stopTicker = nil, nil
	}
}

// callOutput is what one call has printed so far.
type callOutput struct {
	seen    string // the output as of the last update
	updated bool   // an update arrived
	printed int    // bytes printed
	omitted int    // bytes past the limit, not printed
	inexact bool   // omitted is a guess: the output's window moved
	open    bool   // the last line printed may continue
	// at is how much of a command's output is accounted for (printed,
	// omitted or skipped), from the offsets its results carry; shown is how
	// much of it was printed, and cut says that some was not. atEnd says
	// the output up to at was printed to its end (then so is a final line
	// end, which tails leave off).
	at, shown int64
	cut       bool
	atEnd     bool
}

func newToolOutput(w io.Writer, clean func(string) string, limit int) *toolOutput {
	if limit <= 0 {
		limit = DefaultToolOutputLimit
	}
	return &toolOutput{w: w, clean: clean, limit: limit, calls: map[string]*callOutput{}, live: clean != nil}
}

// event handles the tool events, the failovers, the retries, cooldowns,
// compactions, quarantines and budget notes, and ignores the others.
func (o *toolOutput) event(ev agent.Event) {
	o.stopCountdown()
	switch e := ev.(type) {
	case agent.Annotation:
		switch info := e.Data.(type) {
		case runner.AttemptInfo:
			if e.Kind == runner.AnnotationFailover {
				fmt.Fprintf(o.w, "↻ %s\n", info.Summary())
			}
		case runner.RetryStartInfo:
			if info.Cooldown && o.live {
				ticker := time.NewTicker(countdownTick)
				o.waiting = startCountdown(o.w, info, time.Now, ticker.C)
				o.stopTicker = ticker.Stop
				break
			}
			fmt.Fprintf(o.w, "↻ %s\n", info.Summary(info.Delay()))
		case runner.CompactionEnd:
			fmt.Fprintf(o.w, "⟲ %s\n", info.Summary())
		case runner.QuarantineInfo:
			if info.First() { // one line per quarantine, however many calls failed
				fmt.Fprintf(o.w, "⚠ %s\n", info.Summary())
			}
		case runner.CooldownInfo:
			fmt.Fprintln(o.w, info.Line())
		case runner.BudgetInfo:
			if !info.Stopped { // a stop is the run's error, printed as the run ends
				fmt.Fprintf(o.w, "⚠ %s\n", info.Message)
			}
		}
	case agent.ToolExecutionStart:
		o.calls[e.ToolCallID] = &callOutput{}
		fmt.Fprintf(o.w, "→ %s\n", o.header(e.ToolName, e.Args))
	case agent.ToolExecutionUpdate:
		c := o.call(e.ToolCallID)
		c.updated = true
		if w, ok := agent.OutputWindowOf(e.Partial.Details); ok {
			o.follow(c, resultText(e.Partial), w)
		} else {
			o.show(c, resultText(e.Partial))
		}
	case agent.ToolExecutionEnd:
		c := o.call(e.ToolCallID)
		details, command := agent.CommandDetailsOf(e.Result.Details)
		w, windowed := agent.OutputWindowOf(e.Result.Details)
		switch text := resultText(e.Result); {
		case command && windowed && w.TailEnd <= len(text):
			o.follow(c, text, w)
			o.print(c, text[w.TailEnd:]) // how it ended: "[exit code 2]"
		case command || c.updated:
			o.show(c, text)
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
// it was. A command's results say where their text stands in the output,
// which makes the count exact; without that, a command whose output was cut
// for the model (its result holds a head and a tail, the head printed) is
// counted from its whole size. Cut output says where the whole of it is.
func notShown(c *callOutput, d agent.CommandDetails) string {
	var note string
	switch {
	case c.at > 0 && c.cut && d.OutputBytes > 0:
		unseen := d.OutputBytes - c.shown
		if c.atEnd && c.at == d.TailEndsAt {
			unseen -= d.OutputBytes - d.TailEndsAt // the final line end, printed with the last line
		}
		note = fmt.Sprintf("… %d of the output's %d bytes not shown", max(0, unseen), d.OutputBytes)
	case c.at == 0 && d.Truncated && d.OutputBytes > 0:
		note = fmt.Sprintf("… %d more bytes not shown", max(0, d.OutputBytes-int64(c.printed)))
	case c.omitted > 0 && c.inexact:
		note = "… more output not shown"
	case c.omitted > 0:
		note = fmt.Sprintf("… %d more bytes not shown", c.omitted)
	}
	if d.Truncated && d.FullOutputPath != "" {
		if note != "" {
			note += "; "
		}
		note += "the whole output is in " + d.FullOutputPath
	}
	if note == "" {
		return ""
	}
	return "[" + note + "]"
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

// follow prints what a command's result adds to the output c has seen, from
// the offsets it carries: the bytes of its tail past c.at. Output that went
// by between two results, past their tails, is said to be skipped.
func (o *toolOutput) follow(c *callOutput, text string, d agent.OutputWindow) {
	if d.TailStart < 0 || d.TailStart > d.TailEnd || d.TailEnd > len(text) {
		o.show(c, text)
		return
	}
	c.seen = text // for a later result without offsets
	tail := text[d.TailStart:d.TailEnd]
	fresh := d.TailEndsAt - c.at
	if fresh <= 0 {
		return
	}
	c.at = d.TailEndsAt
	part := tail
	if gap := fresh - int64(len(tail)); gap > 0 {
		o.skip(c, int(gap))
	} else {
		part = tail[len(tail)-int(fresh):] // a verbatim tail: its offsets fall between runes
	}
	n := o.print(c, part)
	c.shown += int64(n)
	c.cut = c.cut || n < len(part)
	c.atEnd = n == len(part)
}

// skip says that n bytes of output went by unprinted, on a line of its own
// while there is room, else counted with what the limit left out.
func (o *toolOutput) skip(c *callOutput, n int) {
	c.cut = true
	if o.limit-c.printed <= 0 {
		c.omitted += n
		return
	}
	fmt.Fprintf(o.w, "%s[… %d bytes not shown]\n", outputPrefix, n)
	c.open = false
}

// show prints the part of out, the output so far, that c has not printed.
func (o *toolOutput) show(c *callOutput, out string) {
	part, exact := newPart(c.seen, out)
	c.seen = out
	c.inexact = c.inexact || !exact
	o.print(c, part)
}

// print prints part of the output, line by line under the prefix, within
// the call's limit; what the limit leaves out is counted. It returns how many
// bytes of part it printed.
func (o *toolOutput) print(c *callOutput, part string) int {
	if part == "" {
		return 0
	}
	room := o.limit - c.printed
	if room <= 0 {
		c.omitted += len(part)
		return 0
	}
	if len(part) > room {
		cut := cutAt(part, room)
		if strings.Trim(cut, "\n") == "" {
			cut = "" // no room for a line: a bare line end would print an empty one
		}
		c.omitted += len(part) - len(cut)
		part = cut
	}
	if part == "" {
		return 0
	}
	printed := len(part)
	c.printed += printed
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
	return printed
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
