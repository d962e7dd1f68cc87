package status

import (
	"fmt"
	"math"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
)

// What the run waits for, as its events told: the bar says it instead of
// "working", so that a run that makes no progress says why.
//
//	lane_wait                          → waiting in lane global (1 ahead)
//	lane_wait_end, attempt_start       → the lane wait is over
//	tool_approval_request … _resolved  → waiting for your approval
//	auto_retry_start (Cooldown)        → waiting 23 s for a cooldown
//	auto_retry_start                   → retrying in 3 s
//	auto_retry_end, attempt_start      → the retry wait is over
//	agent_start, agent_end             → nothing is waited for
//
// An approval outranks the others: it is the user who holds the run up.

// runWait is why the run shown makes no progress; the zero value is none.
type runWait struct {
	lane *runner.LaneWait
	// approvals are the tool calls waiting for the user, by session and id.
	approvals map[string]bool
	retry     *runner.RetryStartInfo
	retryEnds time.Time // when retry's wait ends
}

// approvalKey names an approval request across the session's sub-agents.
func approvalKey(sessionID, id string) string { return sessionID + "\x00" + id }

// fold updates w with one event received at now, reporting whether it
// changed anything.
func (w *runWait) fold(ev agent.Event, now time.Time) bool {
	switch e := ev.(type) {
	case agent.AgentStart, agent.AgentEnd:
		if w.waiting() {
			*w = runWait{}
			return true
		}
	case agent.Annotation:
		return w.annotation(e, now)
	}
	return false
}

func (w *runWait) annotation(a agent.Annotation, now time.Time) bool {
	switch data := a.Data.(type) {
	case runner.LaneWait:
		if a.Kind == runner.AnnotationLaneWait {
			w.lane = &data
			return true
		}
	case runner.LaneWaitEnd:
		if a.Kind == runner.AnnotationLaneWaitEnd {
			w.lane = nil
			return true
		}
	case runner.RetryStartInfo:
		if a.Kind == runner.AnnotationRetryStart {
			w.retry, w.retryEnds = &data, now.Add(data.Delay())
			return true
		}
	case runner.RetryEndInfo:
		if a.Kind == runner.AnnotationRetryEnd && w.retry != nil {
			w.retry = nil
			return true
		}
	case runner.AttemptInfo:
		if a.Kind == runner.AnnotationAttemptStart && (w.lane != nil || w.retry != nil) {
			w.lane, w.retry = nil, nil
			return true
		}
	case runner.ApprovalRequest:
		if a.Kind == runner.AnnotationApprovalRequest {
			w.ask(data)
			return true
		}
	case runner.ApprovalResolved:
		if a.Kind == runner.AnnotationApprovalResolved {
			delete(w.approvals, approvalKey(data.SessionID, data.ID))
			return true
		}
	}
	return false
}

func (w *runWait) ask(req runner.ApprovalRequest) {
	if w.approvals == nil {
		w.approvals = map[string]bool{}
	}
	w.approvals[approvalKey(req.SessionID, req.ID)] = true
}

// loaded is the wait of a session switched to: the approvals its snapshot
// says wait. What else it waited for is told by its next events.
func loaded(reqs []runner.ApprovalRequest) runWait {
	var w runWait
	for _, r := range reqs {
		w.ask(r)
	}
	return w
}

func (w runWait) waiting() bool { return w.lane != nil || w.retry != nil || len(w.approvals) > 0 }

// text words the wait at now: "" when the run waits for nothing.
func (w runWait) text(now time.Time) string {
	switch {
	case len(w.approvals) > 0:
		return "waiting for your approval"
	case w.retry != nil && w.retry.Cooldown:
		return fmt.Sprintf("waiting %d s for a cooldown", seconds(w.retryEnds.Sub(now)))
	case w.retry != nil:
		if left := seconds(w.retryEnds.Sub(now)); left > 0 {
			return fmt.Sprintf("retrying in %d s", left)
		}
		return "retrying now"
	case w.lane != nil:
		return fmt.Sprintf("waiting in lane %s (%d ahead)", w.lane.Lane, w.lane.Ahead)
	}
	return ""
}

// seconds counts d down in whole seconds, rounded up: a wait of 29.2 s
// shows 30 until it is 29 s or less.
func seconds(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	return int(math.Ceil(d.Seconds()))
}

// answering is the model a fallback moved the request to, from an
// attempt_start (its Model) or a failover that falls back (its To); "" for
// annotations that say nothing of it.
func answering(a agent.Annotation) string {
	switch info := a.Data.(type) {
	case runner.AttemptInfo:
		switch {
		case a.Kind == runner.AnnotationAttemptStart:
			return info.Model
		case a.Kind == runner.AnnotationFailover && info.Decision == runner.DecisionFallbackModel:
			return info.To
		}
	}
	return ""
}
