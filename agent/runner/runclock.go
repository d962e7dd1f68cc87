package runner

import (
	"sync"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/lanes"
)

// compactionGrace is the one bounded grace a compaction under way gets when
// the run's time limit falls due (seed 003, "超时": 压缩可以获得一次有界宽限期
// — a compaction may get one bounded grace). Its bound is the lane's grace
// (seed 000 §4.2, EMBEDDED_RUN_LANE_TIMEOUT_GRACE_MS = 30 s): the lane
// timeout, renewed by the compaction_start event, then still falls after
// the extended deadline, so the lane never cuts what the grace allows.
const compactionGrace = lanes.TimeoutGrace

// runClock aborts a run that outlives its time limit. Time spent waiting
// for the user's approval does not count: the clock pauses while any
// approval waits. A compaction in progress when the limit falls due gets
// compactionGrace, once per run, to finish (the summary it is writing is
// what lets the next run fit); the run is aborted as soon as it ends, or
// when the grace runs out. It calls only abort (the agent's AbortWith) and
// its timers.
type runClock struct {
	limit time.Duration
	// after starts a timer (time.AfterFunc; tests supply their own).
	after func(d time.Duration, f func()) (stop func() bool)
	now   func() time.Time
	abort func(reason string)

	mu      sync.Mutex
	running bool
	left    time.Duration // time left when the clock last stopped running
	since   time.Time     // when it last started running
	paused  int           // approvals waiting
	stopT   func() bool
	gen     int // tells a stale timer's callback from the current one
	fired   bool
	firedAt time.Time // when the limit was reached
	begun   time.Time // when the run began; zero when none runs
	// compacting says a compaction is under way; graced that the limit
	// fell due during one and its grace runs.
	compacting, graced bool
}

func newRunClock(limit time.Duration, now func() time.Time, abort func(string)) *runClock {
	return &runClock{limit: limit, now: now, abort: abort,
		after: func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }}
}

// start begins a run's clock (agent_start). It keeps the count of waiting
// approvals: start runs on the event path, which may come after the run's
// first tool has begun to wait.
func (c *runClock) start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running, c.fired, c.left, c.begun = true, false, c.limit, c.now()
	c.compacting, c.graced = false, false
	c.arm()
}

// began is when the run under way began, zero when none is.
func (c *runClock) began() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.begun
}

// stop ends it (agent_end).
func (c *runClock) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running, c.begun = false, time.Time{}
	c.disarm()
}

// pause stops the clock while an approval waits; resume restarts it once
// none does.
func (c *runClock) pause() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.paused++
	if c.paused == 1 && c.running && c.stopT != nil {
		c.disarm()
		c.left -= c.now().Sub(c.since)
	}
}

func (c *runClock) resume() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.paused == 0 {
		return
	}
	c.paused--
	if c.paused == 0 && c.running {
		c.arm()
	}
}

// compactionStarted notes a compaction under way (compaction_start).
func (c *runClock) compactionStarted() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.compacting = c.running
}

// compactionEnded notes its end (compaction_end): a run in its grace is out
// of time and is aborted now.
func (c *runClock) compactionEnded() {
	c.mu.Lock()
	c.compacting = false
	if !c.graced || !c.running || c.fired {
		c.mu.Unlock()
		return
	}
	c.disarm()
	c.fired, c.firedAt = true, c.now()
	c.mu.Unlock()
	c.abort(AbortTimeout(c.limit))
}

// timedOut reports whether the last run was stopped by the limit.
func (c *runClock) timedOut() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fired
}

// timedOutAt is when the last run reached its limit; zero when it did not.
func (c *runClock) timedOutAt() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.fired {
		return time.Time{}
	}
	return c.firedAt
}

func (c *runClock) arm() {
	if c.limit <= 0 || c.paused > 0 {
		return
	}
	c.gen++
	gen := c.gen
	c.since = c.now()
	c.stopT = c.after(max(c.left, 0), func() { c.expire(gen) })
}

func (c *runClock) disarm() {
	if c.stopT != nil {
		c.stopT()
		c.stopT = nil
	}
	c.gen++
}

func (c *runClock) expire(gen int) {
	c.mu.Lock()
	if gen != c.gen || !c.running {
		c.mu.Unlock()
		return
	}
	if c.compacting && !c.graced {
		c.graced, c.left = true, compactionGrace
		c.arm()
		c.mu.Unlock()
		return
	}
	c.fired, c.firedAt, c.stopT = true, c.now(), nil
	c.mu.Unlock()
	c.abort(AbortTimeout(c.limit))
}

// observe runs the clock from agent_start to agent_end, and tells it of
// the compactions in between (their grace).
func (c *runClock) observe(ev agent.Event) {
	switch e := ev.(type) {
	case agent.AgentStart:
		c.start()
	case agent.AgentEnd:
		c.stop()
	case agent.Annotation:
		switch e.Kind {
		case AnnotationCompactionStart:
			c.compactionStarted()
		case AnnotationCompactionEnd:
			c.compactionEnded()
		}
	}
}

// timeRun is the run clock's subscriber; the guard's memory of the run
// starts and ends with it.
func (r *Runtime) timeRun(ev agent.Event) {
	r.clock.observe(ev)
	switch ev.(type) {
	case agent.AgentStart:
		r.keeper.run.reset()
	case agent.AgentEnd:
		r.keeper.engines.noticeQuarantines() // what no later request of the run reported
	}
}
