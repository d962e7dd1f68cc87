package lanes

import (
	"slices"
	"time"
)

// Kind says what a lane serialises.
type Kind string

// The kinds of lane.
const (
	KindSession  Kind = "session"  // one run of one session at a time
	KindGlobal   Kind = "global"   // runs across all sessions
	KindSubAgent Kind = "subagent" // sub-agent runs across all sessions
)

// The pool lanes' names.
const (
	GlobalLane   = "global"
	SubAgentLane = "subagent"
)

// sessionLaneName names the lane of session id.
func sessionLaneName(id string) string { return "session:" + id }

// lane is a counting semaphore with a priority queue. It is guarded by its
// scheduler's mutex.
type lane struct {
	name    string
	kind    Kind
	session string // for a session lane
	cap     int
	running []*slot // in the order they started
	waiting []*slot // in the order they will start
}

// slot is one task's place in one lane, waiting or running. It names its
// lane so that leaving frees the lane the task was queued in, never one
// looked up again by name.
type slot struct {
	t        *Task
	l        *lane
	enqueued time.Time
	started  time.Time // zero while waiting
	ready    chan struct{}
}

func newSlot(t *Task, l *lane) *slot { return &slot{t: t, l: l, ready: make(chan struct{})} }

// enqueue starts sl at once when the lane has room and otherwise queues it
// behind every waiter of its priority or higher, reporting whether it
// started. A lane with room has nobody waiting (dispatch fills every free
// place), so a newcomer never passes a waiter.
func (l *lane) enqueue(sl *slot, now time.Time) bool {
	sl.enqueued = now
	if len(l.running) < l.cap {
		l.start(sl, now)
		return true
	}
	p := sl.t.priority
	i := len(l.waiting)
	for i > 0 && l.waiting[i-1].t.priority < p {
		i--
	}
	l.waiting = slices.Insert(l.waiting, i, sl)
	return false
}

func (l *lane) start(sl *slot, now time.Time) {
	sl.started = now
	l.running = append(l.running, sl)
	close(sl.ready)
}

// dequeue takes a waiting sl out of the queue, reporting whether it was
// waiting (false: it has started meanwhile).
func (l *lane) dequeue(sl *slot) bool {
	i := slices.Index(l.waiting, sl)
	if i < 0 {
		return false
	}
	l.waiting = slices.Delete(l.waiting, i, i+1)
	return true
}

// release frees a running sl's place and starts the waiters that now fit.
func (l *lane) release(sl *slot, now time.Time) {
	i := slices.Index(l.running, sl)
	if i < 0 {
		return
	}
	l.running = slices.Delete(l.running, i, i+1)
	for len(l.running) < l.cap && len(l.waiting) > 0 {
		next := l.waiting[0]
		l.waiting = slices.Delete(l.waiting, 0, 1)
		l.start(next, now)
	}
}

// idle reports whether nothing runs or waits in the lane.
func (l *lane) idle() bool { return len(l.running) == 0 && len(l.waiting) == 0 }
