package chat

// How each runtime event changes the transcript:
//
//	event                   effect
//	─────────────────────   ─────────────────────────────────────────────────
//	queue_update            remember each item's kind, to label it when injected
//	message_start user      a user item (labelled steer / follow-up if queued);
//	                        a shell command's settles its tool block (shell.go)
//	message_start assistant a streaming assistant item
//	message_update          the assistant item takes the snapshot: thinking and
//	                        the open markdown block re-render; tool calls that
//	                        started get a pending tool block
//	message_end assistant   exact render; error, "interrupted" or length marker
//	message_end toolResult  completes its tool block if no tool_execution_end did
//	tool_execution_start    the tool block runs: spinner, elapsed time
//	tool_execution_update   the block's live tail shows the output so far
//	tool_execution_end      the block collapses to its summary, exit and duration
//	failover                a notice line: why, and which profile or model next
//	compaction_end          a notice line: how the compaction went, tokens before
//	                        and after
//	quarantine              a notice line: which engine, the method that failed,
//	                        why
//	subagent_progress       the line under the task call that started the
//	                        sub-agent: its state and what it does
//	agent_start, turn_*     nothing
//	agent_end               nothing left streaming: blocks still marked running
//	                        are closed
//
// Finished items are never rendered again at the same width.

import (
	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
)

// apply folds one event into the transcript.
func (m *Model) apply(ev agent.Event) {
	switch e := ev.(type) {
	case agent.QueueUpdate:
		for _, it := range e.Items {
			m.t.kinds[it.ID] = it.Kind
		}
	case agent.MessageStart:
		m.startMessage(e.Message)
	case agent.MessageUpdate:
		if a := m.t.streaming; a != nil && a.update(e.Message) {
			m.touch(a)
		}
		switch e.Event.Type {
		case agent.EventToolCallStart, agent.EventToolCallEnd:
			m.toolCalls(e.Message)
		}
	case agent.MessageEnd:
		m.endMessage(e.Message)
	case agent.ToolExecutionStart:
		t := m.tool(e.ToolCallID, e.ToolName)
		t.state, t.args, t.started = toolRunning, e.Args, m.d.Now()
		m.touch(t)
	case agent.ToolExecutionUpdate:
		t := m.tool(e.ToolCallID, e.ToolName)
		if t.state != toolDone {
			t.state, t.output = toolRunning, resultText(e.Partial.Content)
			m.touch(t)
		}
	case agent.ToolExecutionEnd:
		t := m.tool(e.ToolCallID, e.ToolName)
		t.finish(e.Result, e.IsError, m.d.Now())
		t.progress = m.t.children[t.child]
		m.touch(t)
	case agent.Annotation:
		switch info := e.Data.(type) {
		case runner.RetryStartInfo:
			m.startRetry(info)
		case runner.RetryEndInfo:
			m.endRetry()
		case runner.AttemptInfo:
			if e.Kind == runner.AnnotationAttemptStart {
				m.endRetry()
			}
			if e.Kind == runner.AnnotationFailover {
				m.add(&noticeItem{text: "↻ " + info.Summary()})
			}
		case runner.CompactionEnd:
			m.add(&noticeItem{text: "⟲ " + info.Summary()})
		case runner.QuarantineInfo:
			if info.First() { // one line per quarantine, however many calls failed
				m.add(&noticeItem{text: "⚠ " + info.Summary()})
			}
		case runner.SubagentProgress:
			m.subagentProgress(info)
		case runner.BudgetInfo:
			if !info.Stopped { // a stop is the answer's error, shown with it
				m.add(&noticeItem{text: "⚠ " + info.Message})
			}
		}
	case agent.AgentEnd:
		m.t.streaming = nil
		m.endRetry()
		for t := range m.t.active {
			t.skipped = t.state == toolPending
			t.state = toolDone
			m.touch(t)
		}
	}
}

// subagentProgress puts a sub-agent's progress under the task call that
// started it, once that call has ended and named the child's session.
func (m *Model) subagentProgress(p runner.SubagentProgress) {
	m.t.children[p.SessionID] = p.Summary()
	for _, t := range m.t.tools {
		if t.child == p.SessionID {
			t.progress = m.t.children[p.SessionID]
			m.touch(t)
			return
		}
	}
}

func (m *Model) startMessage(msg agent.Message) {
	switch {
	case m.shellBlock(msg): // a shell command the user ran (shell.go)
	case msg.Role == agent.RoleUser:
		m.add(&userItem{text: msg.Typed(), attached: msg.Attached(), label: label(m.t.kinds[msg.QueueItemID], msg.QueueItemID)})
	case msg.Role == agent.RoleAssistant:
		a := &assistantItem{streaming: true}
		a.update(msg)
		m.t.streaming = a
		m.add(a)
	}
}

func (m *Model) endMessage(msg agent.Message) {
	switch msg.Role {
	case agent.RoleAssistant:
		a := m.t.streaming
		if a == nil { // an end without a start: show it all the same
			a = &assistantItem{}
			m.add(a)
		}
		a.finish(msg)
		m.t.streaming = nil
		m.touch(a)
		m.toolCalls(msg)
		m.skipDropped(msg)
	case agent.RoleToolResult:
		if t, ok := m.t.tools[msg.ToolCallID]; ok && t.state != toolDone {
			t.finish(agent.ToolResult{Content: msg.Content, Details: msg.Details}, msg.IsError, m.d.Now())
			m.touch(t)
		}
	}
}

// toolCalls gives every tool call of msg a block, pending until it runs.
func (m *Model) toolCalls(msg agent.Message) {
	for _, c := range msg.ToolCalls() {
		t := m.tool(c.ID, c.Name)
		if t.state == toolPending && len(c.Arguments) > 0 {
			t.args = c.Arguments
			m.touch(t)
		}
	}
}

// skipDropped settles the pending blocks of calls the finished message no
// longer holds: a response that failed or was cut keeps no half tool calls,
// and they never run.
func (m *Model) skipDropped(msg agent.Message) {
	kept := map[string]bool{}
	for _, c := range msg.ToolCalls() {
		kept[c.ID] = true
	}
	for t := range m.t.active {
		if t.state == toolPending && !kept[t.id] {
			t.state, t.skipped = toolDone, true
			m.touch(t)
		}
	}
}

// tool returns the block of call id, adding it if it is new.
func (m *Model) tool(id, name string) *toolItem {
	if t, ok := m.t.tools[id]; ok {
		return t
	}
	t := &toolItem{id: id, name: name}
	m.t.tools[id] = t
	m.add(t)
	return t
}

// label is how a user message that came from the queue is marked: by the
// kind its item had in the queue updates this view saw.
func label(kind agent.QueueKind, id string) string {
	switch {
	case id == "":
		return ""
	case kind == agent.QueueFollowUp:
		return "follow-up"
	case kind == agent.QueueSteer:
		return "steer"
	}
	return "" // a prompt, or an item queued before this view saw it
}
