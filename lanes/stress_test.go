package lanes

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The shape of the stress test: a few sessions, more workers than the
// global lane admits and several per session, so that every round both
// queues behind its own session and competes for a pool slot; a session
// lane is created and dropped again many times over, which is where a
// check-then-act across the lock would let two runs of one session in.
const (
	stressRounds        = 200_000
	stressSessions      = 3
	stressPerSession    = 3 // workers per session
	stressMaxConc       = 2 // the global lane's cap, below the sessions' count
	stressSubAgentEvery = 5 // every fifth worker's runs are sub-agent runs
	// stressStall turns a waiter that is never let in (a lost wake-up)
	// into a failure instead of a hung test: when no round gets through
	// for that long, every waiter gives up. Nothing waits for it to pass.
	stressStall = 10 * time.Second
)

// stressCheck is the structural check: how many tasks hold each session
// lane and each pool lane right now, and every time an entry found its
// session lane held by another or a pool lane above its cap.
type stressCheck struct {
	s         *Scheduler
	inSession [stressSessions]atomic.Int32
	inGlobal  atomic.Int32
	inSub     atomic.Int32
	double    atomic.Int64 // a session lane with two holders
	overCap   atomic.Int64 // a pool lane above its cap
}

// hold checks the lanes of task t of session s as it holds them: nobody
// else holds its session, counted from outside and seen from inside — the
// session's lane, as the scheduler knows it, runs t alone — and its pool
// lane holds no more than its cap.
func (c *stressCheck) hold(s int, t *Task) {
	pool, limit := &c.inGlobal, int32(stressMaxConc)
	if t.req.SubAgent {
		pool, limit = &c.inSub, int32(DefaultMaxSubAgents)
	}
	if c.inSession[s].Add(1) != 1 || !c.s.runsAlone(t) {
		c.double.Add(1)
	}
	if pool.Add(1) > limit {
		c.overCap.Add(1)
	}
	pool.Add(-1)
	c.inSession[s].Add(-1)
}

// runsAlone reports whether t is the one task running in its session's
// lane, the lane that the next run of the session will queue in.
func (s *Scheduler) runsAlone(t *Task) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.sessions[t.req.Session]
	return l != nil && len(l.running) == 1 && l.running[0].t == t
}

// TestLanesStressOneRunPerSession enters and leaves stressRounds times from
// concurrent workers and checks after every entry that no session lane has
// two holders and no pool lane is over its cap; at the end every lane is
// idle and dropped.
func TestLanesStressOneRunPerSession(t *testing.T) {
	s := New(Options{MaxConcurrent: stressMaxConc})
	c := stressCheck{s: s}
	var taken, done atomic.Int64 // rounds begun, rounds through the lanes
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	finished := make(chan struct{})
	defer close(finished)
	go watchStall(&done, finished, cancel)
	var wg sync.WaitGroup
	errs := make(chan error, stressSessions*stressPerSession)
	for w := range stressSessions * stressPerSession {
		session := w % stressSessions
		r := Request{ID: fmt.Sprint("w", w), Session: fmt.Sprint("s", session), Trigger: "user",
			SubAgent: w%stressSubAgentEvery == stressSubAgentEvery-1}
		wg.Go(func() {
			for taken.Add(1) <= stressRounds {
				task, err := s.Enter(ctx, r)
				if err != nil {
					errs <- err
					return
				}
				c.hold(session, task)
				task.Leave()
				done.Add(1)
			}
		})
	}
	wg.Wait()
	close(errs)
	t.Logf("rounds=%d double=%d", done.Load(), c.double.Load())
	for err := range errs {
		t.Errorf("enter: %v", err)
	}
	if double, over := c.double.Load(), c.overCap.Load(); double != 0 || over != 0 {
		t.Errorf("%d entries found their session lane held, %d found a pool lane over its cap", double, over)
	}
	if snap := s.Snapshot(); len(snap.Lanes) != 2 || len(snap.Lanes[0].Running)+len(snap.Lanes[1].Running) != 0 {
		t.Errorf("lanes left busy: %+v", snap.Lanes)
	}
}

// watchStall calls stall when count has not moved for stressStall, until
// finished is closed.
func watchStall(count *atomic.Int64, finished <-chan struct{}, stall func()) {
	tick := time.NewTicker(stressStall)
	defer tick.Stop()
	last := int64(-1)
	for {
		select {
		case <-finished:
			return
		case <-tick.C:
		}
		n := count.Load()
		if n == last {
			stall()
			return
		}
		last = n
	}
}
