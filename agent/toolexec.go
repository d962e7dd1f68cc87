package agent

import (
	"context"
	"fmt"
	"time"
)

// toolDone is a finished tool of a batch.
type toolDone struct {
	index  int
	result ToolResult
}

// toolProgress is a running tool's output so far, or an annotation it
// emits (see ToolAnnotate).
type toolProgress struct {
	index   int
	partial ToolResult
	note    *Annotation
}

// executeTools runs one batch in parallel (runCalls) and records the result
// messages in request order. terminate reports that a result asked to end
// the run after the batch.
func (l *loop) executeTools(calls []Content) (msgs []Message, terminate bool) {
	results := l.runCalls(l.ctx, calls)
	messages := make([]Message, len(calls))
	for i, call := range calls {
		r := results[i]
		m := Message{
			Role: RoleToolResult, ToolCallID: call.ID, ToolName: call.Name,
			Content: r.Content, Details: r.Details, IsError: r.IsError, Timestamp: l.cfg.Now(),
		}
		l.appendMessage(m)
		messages[i] = m
		terminate = terminate || r.Terminate
	}
	return messages, terminate
}

// runCalls runs one batch in parallel and returns the results in request
// order. Starts are emitted in request order, updates and ends as they
// happen. Steering never cancels a batch; abort cancels the tools' context
// and waits ToolAbortGrace for them before recording the stragglers as
// aborted. The tools' context derives from ctx, which derives from the
// run's.
func (l *loop) runCalls(ctx context.Context, calls []Content) []ToolResult {
	results := make([]ToolResult, len(calls))
	finished := make([]bool, len(calls))
	done := make(chan toolDone, len(calls))
	progress := make(chan toolProgress)
	stop := make(chan struct{}) // closed once the batch stops listening
	defer close(stop)

	toolCtx, cancel := context.WithCancel(ctx)
	defer cancel()

	running := 0
	for i, call := range calls {
		l.emit(ToolExecutionStart{ToolCallID: call.ID, ToolName: call.Name, Args: call.Arguments})
		tool, err := l.prepare(call)
		if err != nil {
			results[i], finished[i] = ErrorResult(err.Error()), true
			continue
		}
		running++
		go runTool(toolCtx, tool, i, call, done, progress, stop)
	}
	for i, call := range calls {
		if finished[i] {
			l.emitToolEnd(call, results[i])
		}
	}

	var grace <-chan time.Time
	ctxDone := l.ctx.Done()
	for running > 0 {
		select {
		case p := <-progress:
			if finished[p.index] {
				continue
			}
			if p.note != nil {
				l.emit(*p.note)
				continue
			}
			call := calls[p.index]
			l.emit(ToolExecutionUpdate{ToolCallID: call.ID, ToolName: call.Name, Args: call.Arguments, Partial: p.partial})
		case d := <-done:
			running--
			results[d.index], finished[d.index] = d.result, true
			l.emitToolEnd(calls[d.index], d.result)
		case <-ctxDone:
			ctxDone = nil
			timer := time.NewTimer(l.cfg.ToolAbortGrace)
			defer timer.Stop()
			grace = timer.C
		case <-grace:
			for i, call := range calls {
				if !finished[i] {
					results[i], finished[i] = ErrorResult("aborted: the tool did not stop in time"), true
					l.emitToolEnd(call, results[i])
				}
			}
			running = 0
		}
	}
	return results
}

// prepare finds the tool and validates the arguments; its error is what the
// model reads in the error result.
func (l *loop) prepare(call Content) (Tool, error) {
	tool, ok := l.cfg.Tools.Lookup(call.Name)
	if !ok {
		return nil, fmt.Errorf("tool %q not found", call.Name)
	}
	if err := l.cfg.Tools.Validate(call.Name, call.Arguments); err != nil {
		return nil, err
	}
	return tool, nil
}

func (l *loop) emitToolEnd(call Content, r ToolResult) {
	l.emit(ToolExecutionEnd{ToolCallID: call.ID, ToolName: call.Name, Result: r, IsError: r.IsError})
}

// runTool executes one tool, turning an error or a panic into an error result.
func runTool(ctx context.Context, tool Tool, index int, call Content,
	done chan<- toolDone, progress chan<- toolProgress, stop <-chan struct{}) {
	result := ToolResult{}
	defer func() {
		if r := recover(); r != nil {
			result = ErrorResult(fmt.Sprintf("tool %s failed: %v", call.Name, r))
		}
		done <- toolDone{index: index, result: result}
	}()
	send := func(p toolProgress) bool {
		select {
		case progress <- p:
			return true
		case <-stop:
			return false
		}
	}
	update := func(partial ToolResult) { send(toolProgress{index: index, partial: partial}) }
	ctx = context.WithValue(ctx, toolAnnotatorKey{}, func(a Annotation) bool {
		return send(toolProgress{index: index, note: &a})
	})
	r, err := tool.Execute(ctx, call.ID, call.Arguments, update)
	if err != nil {
		r = ErrorResult(err.Error())
	}
	result = r
}
