// Package plain is steer's plain front end (--plain, ui.plain), for screen
// readers and logs: it reads a line of input at a time and writes each
// finished item once, as plain text lines — the user's message, the answer,
// each tool call with its result, the facts of the run — with no redraws,
// no spinners, no box drawing and no cursor movement. A question (an
// approval, the workspace trust, an MCP server's request for input) is a
// line ending in its choices, answered by the next line (questions.go).
//
// It hears the same runner events as every front end; the full-screen TUI
// is its sibling package tui.
package plain

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/outbox"
	"github.com/steer-tui/steer/tui/sanitize"
)

// Options tune Run.
type Options struct {
	// Welcome is the first line written.
	Welcome string
	// ResultLines bounds the lines of a tool's result written; 0 is
	// DefaultResultLines.
	ResultLines int
}

// DefaultResultLines is how much of a tool's result is written: enough to
// follow what it did, not a whole file.
const DefaultResultLines = 20

// quitCommand ends the session like the end of input does.
const quitCommand = "/quit"

// Run reads lines from in until it ends, /quit or ctx is cancelled, and
// writes the session's items to out. A line is a message to the agent
// (steering while a run is active, like Enter in the TUI), or the answer to
// the question just written. At the end of input Run waits for the run
// under way to finish.
func Run(ctx context.Context, h *runner.Host, in io.Reader, out io.Writer, o Options) error {
	if o.ResultLines <= 0 {
		o.ResultLines = DefaultResultLines
	}
	box := outbox.New()
	defer func() { _ = box.Drain(context.Background()) }()
	p := &printer{w: box.To(out), lines: o.ResultLines, h: h}
	if o.Welcome != "" {
		p.say(o.Welcome)
	}
	rt := h.Current()
	defer rt.Subscribe(p.event)()
	defer h.SubscribeNotices(func(n runner.Notice) { p.say("note: " + n.Text) })()
	defer p.watchMCP(h)()
	h.SetMCPElicitor(p.elicit)
	defer h.SetMCPElicitor(nil)
	if w, ok := h.WorkspaceTrust(); ok && !w.Trusted {
		p.mu.Lock()
		p.askLocked(&trustQuestion{h: h, w: w})
		p.mu.Unlock()
	}

	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			rt.Abort()
			return nil
		case line, ok := <-lines:
			if !ok || strings.TrimSpace(line) == quitCommand {
				return rt.WaitForIdle(ctx)
			}
			p.input(ctx, rt, line)
		}
	}
}

// printer writes the items; its methods run on the runtime's subscriber
// goroutine and on Run's, hence mu.
type printer struct {
	mu    sync.Mutex
	w     io.Writer
	lines int
	h     *runner.Host
	// asks are the questions waiting, the first one asked (questions.go).
	asks []question
	// planLeft is the mode /plan last entered plan mode from.
	planLeft runner.ApprovalMode
}

// approvePlan approves the session's plan into mode.
func (p *printer) approvePlan(ctx context.Context, mode runner.ApprovalMode) error {
	_, _, err := p.h.ApprovePlan(ctx, mode)
	return err
}

// say writes one item: its lines, made safe to print.
func (p *printer) say(text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sayLocked(text)
}

func (p *printer) sayLocked(text string) {
	fmt.Fprintln(p.w, clean(text))
}

// clean removes escape sequences and control characters, keeping lines.
func clean(s string) string {
	return sanitize.String(strings.TrimRight(s, "\n"), sanitize.Options{})
}

// input answers the question asked, or hands a typed line to the runtime.
func (p *printer) input(ctx context.Context, rt *runner.Runtime, line string) {
	if p.answerHead(line) {
		return
	}
	if strings.TrimSpace(line) == "" {
		return
	}
	now := p.h.ApprovalMode()
	if mode, ok := planMode(line, now, p.planLeft); ok {
		if mode == runner.ApprovalPlan && now != runner.ApprovalPlan {
			p.planLeft = now
		}
		if err := p.h.SetApprovalMode(mode); err != nil {
			p.say("error: " + err.Error())
		}
		return // the approval_mode notice says it
	}
	attached, err := rt.Attach(ctx, line, nil)
	if err == nil {
		_, _, err = rt.Steer(ctx, line, attached...)
	}
	if err != nil {
		p.say("error: " + err.Error())
	}
}
