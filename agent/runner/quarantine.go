package runner

import (
	"context"
	"fmt"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/contextguard/engines"
)

// Quarantines as events, so that every front end hears of them:
//
//	quarantine {engine, method, reason, error, stderr?, count}
//	    a context engine failed and was put in quarantine; the built-in
//	    engine answers in its place. A failure during a request goes out
//	    with the request's events (AnnotationQuarantine); one outside a
//	    request as a notice (NoticeQuarantine), with the same Data.
//	quarantine_cleared {engine}
//	    this runtime lifted an engine's quarantine (/engines → c, rpc
//	    clear_quarantine): a notice (NoticeQuarantineCleared, Data the
//	    QuarantineCleared). A quarantine cleared by another process (`steer
//	    inspect engines --clear`) is only read there.
const (
	AnnotationQuarantine        = "quarantine"
	AnnotationQuarantineCleared = string(NoticeQuarantineCleared)
)

// QuarantineInfo is what a quarantine event says.
type QuarantineInfo struct {
	Engine string `json:"engine"`
	Method string `json:"method"`
	Reason string `json:"reason"`
	Error  string `json:"error"`
	// Stderr is the end of what the engine wrote on stderr before it failed
	// (a few lines, sanitised), where a program says what went wrong.
	Stderr string `json:"stderr,omitempty"`
	// Count is the quarantine's failures so far, this one included: 1 for
	// the failure that began it.
	Count int `json:"count"`
}

// First reports whether this failure began the quarantine. Calls in flight
// together (the engine told of a message while asked for a request's
// context) fail together; a front end that tells the user once per
// quarantine tells only the first.
func (q QuarantineInfo) First() bool { return q.Count <= 1 }

// Summary says in one line what happened, for the transcript's notice and
// steer run's stderr.
func (q QuarantineInfo) Summary() string {
	s := fmt.Sprintf("context engine %s quarantined: %s failed (%s); the built-in engine answers instead", q.Engine, q.Method, q.Reason)
	if q.Stderr != "" {
		s += "; its stderr ended: " + q.Stderr
	}
	return s
}

// QuarantineCleared is the Data of quarantine_cleared.
type QuarantineCleared struct {
	Engine string `json:"engine"`
}

// Line words the clear for a line of its own: "context engine lcm:
// quarantine cleared; it answers again".
func (c QuarantineCleared) Line() string {
	return fmt.Sprintf("context engine %s: quarantine cleared; it answers again", c.Engine)
}

// quarantined is told of each failure the guard recorded; the failure
// reaches the front ends with the next request's events
// (announceQuarantines), or as a notice when no request is under way.
func (e *contextEngines) quarantined(ev engines.QuarantineEvent) {
	info := QuarantineInfo{Engine: ev.Quarantine.Engine, Method: string(ev.Method), Reason: string(ev.Reason),
		Stderr: ev.Stderr, Count: ev.Quarantine.Count}
	if ev.Err != nil {
		info.Error = ev.Err.Error()
	}
	e.setup.log.Warn("context engine quarantined", "engine", info.Engine, "method", info.Method, "reason", info.Reason,
		"error", info.Error, "stderr", info.Stderr, "count", info.Count, "storeError", ev.StoreErr)
	e.mu.Lock()
	e.quarantines = append(e.quarantines, info)
	e.mu.Unlock()
}

// takeQuarantines returns the quarantines recorded since the last call.
func (e *contextEngines) takeQuarantines() []QuarantineInfo {
	e.mu.Lock()
	defer e.mu.Unlock()
	q := e.quarantines
	e.quarantines = nil
	return q
}

// announceQuarantines puts the quarantines recorded so far into a
// request's events.
func (e *contextEngines) announceQuarantines(ctx context.Context, out *agent.AssistantStream) {
	for _, q := range e.takeQuarantines() {
		annotate(ctx, out, AnnotationQuarantine, q)
	}
}

// noticeQuarantines reports, as notices, quarantines recorded outside a
// request and not reported by one: an engine told of the last turn of a
// run, or of a session between runs.
func (e *contextEngines) noticeQuarantines() {
	for _, q := range e.takeQuarantines() {
		e.session.notify(NoticeQuarantine, q.Summary(), q)
	}
}
