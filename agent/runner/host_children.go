package runner

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/steer-tui/steer/agent"
)

// AnnotationSubagentProgress: a sub-agent of the current session made
// progress (started, ran a tool, wrote, ended); Data is a SubagentProgress.
// The host sends it instead of the child's own events, which would be far
// too many for a line under the task call.
const AnnotationSubagentProgress = "subagent_progress"

// The states of a SubagentProgress.
const (
	SubagentWorking  = "working"
	SubagentAnswered = "answered"
	SubagentFailed   = "failed"
	SubagentAborted  = "aborted"
)

// SubagentProgress is where a sub-agent stands: SessionID names its session
// (the task call's TaskDetails.SessionID), Doing what it does or did last.
type SubagentProgress struct {
	SessionID string
	State     string
	Doing     string
	// Tools counts the tool calls it has run.
	Tools int
}

// childWatcher turns a runtime's children's events into progress for the
// host's subscribers, while that runtime is the current one.
type childWatcher struct {
	h  *Host
	rt *Runtime

	mu    sync.Mutex                  // children run side by side
	tools map[string]int              // child session → tool calls run
	last  map[string]SubagentProgress // child session → its latest progress
	ended map[string]agent.Message    // child session → its run's last message, until its run_end
}

// watchChildren starts following rt's sub-agents. h.mu is held.
func (h *Host) watchChildren(rt *Runtime) {
	w := &childWatcher{h: h, rt: rt, tools: map[string]int{}, last: map[string]SubagentProgress{}, ended: map[string]agent.Message{}}
	if h.children == nil {
		h.children = map[*Runtime]*childWatcher{}
	}
	h.children[rt] = w
	rt.SubscribeChildren(w.event)
}

// latest is every child's latest progress, for a snapshot of the session.
func (w *childWatcher) latest() []SubagentProgress {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]SubagentProgress, 0, len(w.last))
	for _, p := range w.last {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b SubagentProgress) int { return strings.Compare(a.SessionID, b.SessionID) })
	return out
}

func (w *childWatcher) event(id string, ev agent.Event) {
	if a, ok := ev.(agent.Annotation); ok && (a.Kind == AnnotationApprovalRequest || a.Kind == AnnotationApprovalResolved) {
		w.deliver(a)       // the front end answers the child's question
		w.h.watch(w.rt, a) // and the background badge counts it
		return
	}
	if p, ok := w.progress(id, ev); ok {
		w.deliver(agent.Annotation{Kind: AnnotationSubagentProgress, Data: p})
	}
}

// deliver hands ev to the host's subscribers while w's runtime is current.
func (w *childWatcher) deliver(ev agent.Event) {
	h := w.h
	h.emitMu.Lock()
	defer h.emitMu.Unlock()
	if h.attached == w.rt {
		h.deliverLocked(ev)
	}
}

// progress is what ev changes in child id's progress; false when nothing
// worth a line.
func (w *childWatcher) progress(id string, ev agent.Event) (SubagentProgress, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	p := SubagentProgress{SessionID: id, State: SubagentWorking, Tools: w.tools[id]}
	switch e := ev.(type) {
	case agent.AgentStart:
		p.Doing = "started"
	case agent.ToolExecutionStart:
		w.tools[id]++
		p.Tools = w.tools[id]
		p.Doing = "running " + e.ToolName
	case agent.MessageEnd:
		text := firstLine(e.Message.TextContent())
		if e.Message.Role != agent.RoleAssistant || text == "" {
			return p, false
		}
		p.Doing = text
	case agent.AgentEnd: // the run_end right after it says how it went
		var last agent.Message
		if n := len(e.Messages); n > 0 {
			last = e.Messages[n-1]
		}
		w.ended[id] = last
		return p, false
	case agent.Annotation:
		end, ok := e.Data.(RunEnd)
		if !ok || e.Kind != AnnotationRunEnd {
			return p, false
		}
		last := w.ended[id]
		delete(w.ended, id)
		delete(w.tools, id)
		switch end.Outcome {
		case OutcomeCompleted:
			p.State, p.Doing = SubagentAnswered, firstLine(last.TextContent())
		case OutcomeCancelled:
			p.State, p.Doing = SubagentAborted, last.ErrorMessage
		case OutcomeFailed:
			p.State, p.Doing = SubagentFailed, last.ErrorMessage
		default: // timed out or blocked: the outcome says which
			p.State, p.Doing = SubagentFailed, end.Outcome
			if last.ErrorMessage != "" {
				p.Doing += ": " + last.ErrorMessage
			}
		}
	default:
		return p, false
	}
	w.last[id] = p
	return p, true
}

// Summary words the progress for a line under the task call.
func (p SubagentProgress) Summary() string {
	s := p.State
	if p.Tools > 0 {
		s += fmt.Sprintf(" · %d tool call", p.Tools)
		if p.Tools > 1 {
			s += "s"
		}
	}
	if p.Doing != "" {
		s += " · " + p.Doing
	}
	return s
}
