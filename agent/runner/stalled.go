package runner

import (
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/steer-tui/steer/agent"
)

// Stuck-run diagnostics (seed 003, "会话卡住诊断"): a run that has made no
// progress — no event of any kind: no stream delta, no tool output, no
// annotation, no lane movement — for StallAfter is stalled. The runtime
// says so (NoticeRunStalled, State().Stalled, the lanes view), says so again
// when progress comes back (NoticeRunResumed), and aborts a run still
// stalled at StallAbortAfter, so that the work queued behind it can go on
// while a run that is only slow is not cut.
//
// Waiting is not stalling: while an approval waits for the user, a run waits
// in a lane or for a retry's delay (the annotations that open and close
// those waits), or waits for its sub-agents, its idle time does not count.
const (
	// StallAfter is the seed's built-in warning threshold ("一个内置的两分钟
	// 阈值").
	StallAfter = 2 * time.Minute
	// stallAbortFloor and stallAbortFactor bound the abort threshold: "中止
	// 阈值至少为 5 分钟，并且是警告阈值的 3 倍".
	stallAbortFloor  = 5 * time.Minute
	stallAbortFactor = 3
	// StallAbortAfter is when a stalled run is aborted: 6 min.
	StallAbortAfter = max(stallAbortFloor, stallAbortFactor*StallAfter)
)

// The notices of stuck-run diagnostics; Data is a StallInfo.
const (
	// NoticeRunStalled: the run made no progress for StallAfter.
	NoticeRunStalled NoticeKind = "run_stalled"
	// NoticeRunResumed: a stalled run made progress again.
	NoticeRunResumed NoticeKind = "run_resumed"
)

// StallInfo is the Data of run_stalled and run_resumed (run_stalled
// {sinceMs, idleMs, abortAfterMs}).
type StallInfo struct {
	SessionID string `json:"sessionId"`
	// SinceMs is when the run last made progress (Unix milliseconds).
	SinceMs int64 `json:"sinceMs"`
	// IdleMs is how long it has made none.
	IdleMs int64 `json:"idleMs"`
	// AbortAfterMs is the idle time at which it is aborted.
	AbortAfterMs int64 `json:"abortAfterMs"`
}

// Since is SinceMs as a time.
func (i StallInfo) Since() time.Time { return time.UnixMilli(i.SinceMs) }

// StalledRun is a stalled run in the lanes view: the session whose run it
// is (a session runs one run at a time) and when it last made progress.
type StalledRun struct {
	SessionID string    `json:"sessionId"`
	Since     time.Time `json:"since"`
}

// AbortStalled is the reason of a run aborted because it stalled.
func AbortStalled(idle time.Duration) string {
	return fmt.Sprintf("run stalled: no progress for %s", idle.Round(time.Second))
}

// stallWatch tells a stalled run from a running one. Its callbacks run
// without its lock held: stalled and resumed on the event path or the
// timer's goroutine, abort on the timer's. It calls nothing but them and
// its timers.
type stallWatch struct {
	// after starts a timer (time.AfterFunc; tests supply their own).
	after func(d time.Duration, f func()) (stop func() bool)
	now   func() time.Time
	// excused reports that the run waits on others now (its sub-agents).
	excused func() bool
	stalled func(since time.Time, idle time.Duration)
	resumed func(since time.Time)
	abort   func(reason string)

	mu      sync.Mutex
	running bool
	last    time.Time       // the run's latest progress
	holds   map[string]bool // the waits open now (see waitKey)
	stuck   bool
	stopT   func() bool
	gen     int
}

func newStallWatch(now func() time.Time) *stallWatch {
	return &stallWatch{now: now, excused: func() bool { return false },
		stalled: func(time.Time, time.Duration) {}, resumed: func(time.Time) {}, abort: func(string) {},
		after: func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }}
}

// observe folds one event of the run: every event is progress; agent_start
// and agent_end bound the watch; some annotations open and close a wait.
func (w *stallWatch) observe(ev agent.Event) {
	switch e := ev.(type) {
	case agent.AgentStart:
		w.start()
		return
	case agent.AgentEnd:
		w.stop()
		return
	case agent.Annotation:
		if key, open, ok := waitKey(e); ok {
			w.wait(key, open)
		}
	case agent.ToolExecutionStart:
		// A tool at work is long-running, not stalled (seed 003): a quiet
		// build or test suite runs as long as it needs, under the run's
		// time limit and the tool's own.
		w.wait("tool "+e.ToolCallID, true)
	case agent.ToolExecutionEnd:
		w.wait("tool "+e.ToolCallID, false)
	}
	w.progress()
}

// waitKey names the wait an annotation opens (open) or closes: an
// approval by its call, the lane wait, a retry's delay. An attempt's start
// ends both of the last two.
func waitKey(a agent.Annotation) (key string, open, ok bool) {
	switch a.Kind {
	case AnnotationApprovalRequest:
		if req, is := a.Data.(ApprovalRequest); is {
			return "approval " + req.ID, true, true
		}
	case AnnotationApprovalResolved:
		if res, is := a.Data.(ApprovalResolved); is {
			return "approval " + res.ID, false, true
		}
	case AnnotationLaneWait:
		return "lane", true, true
	case AnnotationLaneWaitEnd:
		return "lane", false, true
	case AnnotationRetryStart:
		return "retry", true, true
	case AnnotationRetryEnd, AnnotationAttemptStart:
		return "retry", false, true
	}
	return "", false, false
}

func (w *stallWatch) start() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.disarm()
	w.running, w.stuck, w.last, w.holds = true, false, w.now(), map[string]bool{}
	w.arm(StallAfter)
}

func (w *stallWatch) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.running, w.stuck = false, false
	w.disarm()
}

func (w *stallWatch) wait(key string, open bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.running {
		return
	}
	if open {
		w.holds[key] = true
		return
	}
	delete(w.holds, key)
	if key == "retry" { // an attempt starts: no lane wait is left either
		delete(w.holds, "lane")
	}
}

// progress notes that the run moved; a stalled run has resumed.
func (w *stallWatch) progress() {
	w.mu.Lock()
	if !w.running {
		w.mu.Unlock()
		return
	}
	since, was := w.last, w.stuck
	w.last, w.stuck = w.now(), false
	w.mu.Unlock()
	if was {
		w.resumed(since)
	}
}

// stalledSince is when the run last made progress, while it is stalled;
// zero otherwise.
func (w *stallWatch) stalledSince() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.stuck {
		return time.Time{}
	}
	return w.last
}

// arm starts the timer for d from now; progress is read when it fires, so
// that a delta costs no timer.
func (w *stallWatch) arm(d time.Duration) {
	w.gen++
	gen := w.gen
	w.stopT = w.after(d, func() { w.fire(gen) })
}

func (w *stallWatch) disarm() {
	if w.stopT != nil {
		w.stopT()
		w.stopT = nil
	}
	w.gen++
}

// fire judges the run when its timer ends: waiting (it starts counting
// again), not idle long enough yet, newly stalled, or stalled past
// StallAbortAfter (aborted).
func (w *stallWatch) fire(gen int) {
	w.mu.Lock()
	if gen != w.gen || !w.running {
		w.mu.Unlock()
		return
	}
	now := w.now()
	if len(w.holds) > 0 || w.excused() {
		w.last = now
		w.arm(StallAfter)
		w.mu.Unlock()
		return
	}
	idle := now.Sub(w.last)
	switch {
	case idle < StallAfter:
		w.arm(StallAfter - idle)
		w.mu.Unlock()
	case idle >= StallAbortAfter:
		w.running, w.stopT = false, nil
		w.mu.Unlock()
		w.abort(AbortStalled(idle))
	case !w.stuck:
		w.stuck = true
		since := w.last
		w.arm(StallAbortAfter - idle)
		w.mu.Unlock()
		w.stalled(since, idle)
	default:
		w.arm(StallAbortAfter - idle)
		w.mu.Unlock()
	}
}

// stallBoard lists the stalled runs of the runtimes that share a lane
// scheduler, for the lanes view; its owner is the runtime that owns the
// lanes (see Runtime.stalls).
type stallBoard struct {
	mu   sync.Mutex
	runs map[string]time.Time // session id → last progress
}

func (b *stallBoard) set(session string, since time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.runs == nil {
		b.runs = map[string]time.Time{}
	}
	b.runs[session] = since
}

func (b *stallBoard) clear(session string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.runs, session)
}

// list is the stalled runs by session id; never nil.
func (b *stallBoard) list() []StalledRun {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]StalledRun, 0, len(b.runs))
	for s, since := range b.runs {
		out = append(out, StalledRun{SessionID: s, Since: since})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SessionID < out[j].SessionID })
	return out
}

// stalls is the board of the runtimes sharing this one's lanes: the lanes
// owner's, else this runtime's own.
func (r *Runtime) stalls() *stallBoard {
	if owner := r.lanesOwner; owner != nil {
		return &owner.stallRuns
	}
	return &r.stallRuns
}

// watchStalls is r's stall watch, wired to r: the run's events feed it; a
// stall and its end are notices, the runtime's state and the lanes view; a
// run stalled too long is aborted.
func watchStalls(r *Runtime) *stallWatch {
	w := newStallWatch(r.opts.Now)
	w.excused = func() bool { return r.subs.running() > 0 }
	info := func(since time.Time, idle time.Duration) StallInfo {
		return StallInfo{SessionID: r.SessionID(), SinceMs: since.UnixMilli(), IdleMs: idle.Milliseconds(),
			AbortAfterMs: StallAbortAfter.Milliseconds()}
	}
	w.stalled = func(since time.Time, idle time.Duration) {
		r.stalls().set(r.SessionID(), since)
		r.notifyData(NoticeRunStalled, fmt.Sprintf("the run has made no progress for %s; it is aborted at %s",
			idle.Round(time.Second), StallAbortAfter), info(since, idle))
	}
	w.resumed = func(since time.Time) {
		r.stalls().clear(r.SessionID())
		r.notifyData(NoticeRunResumed, "the run makes progress again", info(since, r.opts.Now().Sub(since)))
	}
	w.abort = func(reason string) {
		r.stalls().clear(r.SessionID())
		r.agent.AbortWith(reason)
	}
	r.agent.Subscribe(func(ev agent.Event) {
		w.observe(ev)
		if _, end := ev.(agent.AgentEnd); end {
			r.stalls().clear(r.SessionID())
		}
	})
	return w
}
