package chat

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/humanize"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/sanitize"
)

// Tool block sizes.
const (
	// liveTail is how many lines of output a running tool shows.
	liveTail = 8
	// failedTail is how many last lines a collapsed failed tool keeps.
	failedTail = 3
	// maxExpanded caps an expanded block; the rest is summarised.
	maxExpanded = 400
)

type toolState int

const (
	toolPending toolState = iota // asked for, not started
	toolRunning
	toolDone
)

// toolItem is one tool call: a header with the name, an argument summary
// and the status; the live tail of its output while it runs; a one-line
// summary (expandable) once it finished.
type toolItem struct {
	id, name string
	args     map[string]any
	state    toolState
	output   string // the latest output: partial while running, then final
	isError  bool
	skipped  bool // asked for but never run (the response failed or was cut)
	exit     *int
	aborted  bool
	started  time.Time
	duration time.Duration
	open     bool
	// child is the session of the sub-agent a task call started, and
	// progress the line it last reported (runner.SubagentProgress).
	child, progress string
	// shell is the mark of a shell command the user ran ("!", "!!"),
	// shown for the tool's name (shell.go); "" for a model's call.
	shell string
	out   outputLines // output ready to show, remade when it changes
	head  headerText  // name and argument summary, remade when they change
}

func (t *toolItem) expanded() bool     { return t.open }
func (t *toolItem) setExpanded(v bool) { t.open = v }

// finish records the result of the call.
func (t *toolItem) finish(res agent.ToolResult, isError bool, at time.Time) {
	t.state, t.isError = toolDone, isError || res.IsError
	t.output = resultText(res.Content)
	if !t.started.IsZero() && !at.IsZero() {
		t.duration = at.Sub(t.started)
	}
	if task, ok := res.Details.(runner.TaskDetails); ok {
		t.child = task.SessionID
	}
	if info, ok := agent.CommandDetailsOf(res.Details); ok {
		exit := info.ExitCode
		t.exit, t.aborted = &exit, info.Aborted
		if info.DurationMs > 0 {
			t.duration = time.Duration(info.DurationMs) * time.Millisecond
		}
	}
}

func (t *toolItem) render(rc *renderCtx) []string {
	out := []string{t.header(rc)}
	if t.child != "" {
		line := "└ sub-agent " + t.child
		if t.progress != "" {
			line += ": " + sanitize.String(t.progress, sanitize.Options{})
		}
		out = append(out, rc.st.ToolMeta.Render(ansi.Truncate(line, rc.width, "…")))
	}
	body := t.body(rc)
	for _, l := range body {
		out = append(out, rc.st.ToolGutter.Render("│ ")+l)
	}
	if hint := t.hint(rc, len(body)); hint != "" {
		out = append(out, hint)
	}
	return out
}

func (t *toolItem) header(rc *renderCtx) string {
	var mark string
	var meta []string
	switch {
	case t.state == toolPending:
		mark = rc.st.ToolMeta.Render("○")
	case t.skipped:
		mark = rc.st.ToolMeta.Render("–")
		meta = append(meta, "not run")
	case t.state == toolRunning:
		mark = rc.st.ToolRunning.Render(rc.spinner)
		if !t.started.IsZero() && !rc.now.IsZero() {
			meta = append(meta, humanize.Duration(rc.now.Sub(t.started)))
		}
	case t.isError:
		mark = rc.st.ToolFailed.Render("✗")
	default:
		mark = rc.st.ToolOK.Render("✓")
	}
	if t.state == toolDone {
		switch {
		case t.aborted:
			meta = append(meta, "aborted")
		case t.exit != nil:
			meta = append(meta, fmt.Sprintf("exit %d", *t.exit))
		case t.isError:
			meta = append(meta, "failed")
		}
		if t.duration > 0 {
			meta = append(meta, humanize.Duration(t.duration))
		}
	}
	name, summary := t.head.get(t.name, t.args)
	if t.shell != "" {
		name = t.shell
		if t.shell == shellPrivateMark {
			meta = append(meta, privateNote)
		}
	}
	head := mark + " " + rc.st.ToolName.Render(name)
	tail := ""
	if len(meta) > 0 {
		tail = rc.st.ToolMeta.Render(" · " + strings.Join(meta, " · "))
	}
	room := rc.width - ansi.StringWidth(head) - ansi.StringWidth(tail) - 1
	if summary != "" && room > 3 {
		head += " " + rc.st.ToolArgs.Render(ansi.Truncate(summary, room, "…"))
	}
	return ansi.Truncate(head+tail, rc.width, "…")
}

// body returns the output lines to show, without the gutter.
func (t *toolItem) body(rc *renderCtx) []string {
	if t.output == "" || (t.state == toolDone && !t.open && !t.isError) {
		return nil
	}
	width := max(rc.width-2, 1)
	lines := t.out.get(t.output, rc.allowSGR)
	switch {
	case t.state != toolDone:
		lines = lastN(lines, liveTail)
	case !t.open:
		lines = lastN(lines, failedTail)
	case len(lines) > maxExpanded:
		lines = lines[len(lines)-maxExpanded:]
	}
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if t.state == toolDone && t.open {
			for _, w := range strings.Split(ansi.Hardwrap(l, width, true), "\n") {
				out = append(out, rc.st.ToolOutput.Render(w))
			}
			continue
		}
		out = append(out, rc.st.ToolOutput.Render(ansi.Truncate(l, width, "…")))
	}
	return out
}

// hint says how much output is hidden, for a finished block.
func (t *toolItem) hint(rc *renderCtx, shown int) string {
	if t.state != toolDone || t.output == "" {
		return ""
	}
	total := strings.Count(strings.TrimRight(t.output, "\n"), "\n") + 1
	if t.open || total <= shown {
		return ""
	}
	hidden := total - shown
	word := "lines"
	if hidden == 1 {
		word = "line"
	}
	return rc.st.ToolMeta.Render(fmt.Sprintf("└ %d %s of output hidden", hidden, word))
}

// outputLines is a tool's output made ready to show: sanitised, tabs
// expanded, split into lines. A running tool is redrawn on every spinner
// frame; keeping this per output makes a frame cost the few lines shown
// rather than a pass over all the output, which is sanitised once per update.
type outputLines struct {
	src      string // the output lines were made from
	allowSGR bool
	lines    []string // shared with callers, who only read or reslice them
	made     int      // how many times lines were made, for tests
}

func (o *outputLines) get(output string, allowSGR bool) []string {
	if o.made > 0 && output == o.src && allowSGR == o.allowSGR {
		return o.lines
	}
	text := sanitize.String(output, sanitize.Options{AllowSGR: allowSGR})
	text = strings.TrimRight(text, "\n") // tabs are spaces already (sanitize)
	o.src, o.allowSGR, o.lines = output, allowSGR, strings.Split(text, "\n")
	o.made++
	return o.lines
}

// headerText is a call's name and argument summary, sanitised, kept for
// the same reason as outputLines. Arguments are never mutated once
// published, so a change of map is a change of arguments; holding the map
// keeps its address from being reused by another.
type headerText struct {
	made          bool
	name          string
	args          map[string]any
	safe, summary string
}

func (h *headerText) get(name string, args map[string]any) (safeName, summary string) {
	same := h.made && name == h.name &&
		reflect.ValueOf(args).Pointer() == reflect.ValueOf(h.args).Pointer()
	if !same {
		h.made, h.name, h.args = true, name, args
		h.safe, h.summary = sanitize.String(name, sanitize.Options{}), argSummary(name, args)
	}
	return h.safe, h.summary
}

func lastN(lines []string, n int) []string {
	if len(lines) > n {
		return lines[len(lines)-n:]
	}
	return lines
}

// resultText joins the text blocks of a tool result.
func resultText(content []agent.Content) string {
	var parts []string
	for _, c := range content {
		switch c.Type {
		case agent.ContentText:
			parts = append(parts, c.Text)
		case agent.ContentImage:
			parts = append(parts, "[image "+c.MimeType+"]")
		}
	}
	return strings.Join(parts, "\n")
}

// argSummary is a one-line summary of a call's arguments: the argument that
// says most for the built-in tools, else compact JSON.
func argSummary(name string, args map[string]any) string {
	if len(args) == 0 {
		return ""
	}
	for _, key := range []string{"command", "path", "pattern", "file_path", "query", "url"} {
		if v, ok := args[key].(string); ok && v != "" {
			s := v
			if key == "pattern" {
				if p, ok := args["path"].(string); ok && p != "" {
					s += " in " + p
				}
			}
			return oneLine(s)
		}
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		v, _ := json.Marshal(args[k])
		parts = append(parts, k+"="+string(v))
	}
	return oneLine(strings.Join(parts, " "))
}

// oneLine sanitises s and folds it onto one line.
func oneLine(s string) string {
	s = sanitize.String(s, sanitize.Options{})
	return strings.Join(strings.Fields(s), " ")
}
