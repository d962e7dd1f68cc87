package runner

import (
	"context"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/lanes"
)

// A run that cannot start because its lane is full says so: while it waits
// in its session's lane, the global lane or the sub-agent lane, its stream
// carries a lane_wait annotation each time its place in the queue changes,
// and a lane_wait_end once it is in (or gave up). Front ends show why
// nothing happens instead of a bare "working".
const (
	AnnotationLaneWait    = "lane_wait"
	AnnotationLaneWaitEnd = "lane_wait_end"
)

// LaneWait is the Data of lane_wait: the lane a run waits for and its place
// in that lane's queue.
type LaneWait struct {
	// Lane is the kind of lane: "session", "global" or "subagent".
	Lane lanes.Kind `json:"lane"`
	// Ahead is how many runs must leave the lane before this one starts:
	// its place in the queue, 1 for the first.
	Ahead int `json:"ahead"`
	// Since is when the run reached this lane.
	Since time.Time `json:"since"`
}

// LaneWaitEnd is the Data of lane_wait_end: the run got its lanes
// (Entered), or stopped waiting (aborted).
type LaneWaitEnd struct {
	Entered bool `json:"entered"`
}

// laneWaiting finds run id among the waiting tasks of snap: the lane it
// waits for and how many go before it; false when it waits nowhere.
func laneWaiting(snap lanes.Snapshot, id string) (LaneWait, bool) {
	for _, l := range snap.Lanes {
		for i, e := range l.Waiting {
			if e.ID == id {
				return LaneWait{Lane: l.Kind, Ahead: i + 1, Since: e.Enqueued}, true
			}
		}
	}
	return LaneWait{}, false
}

// enterWatched is sched.Enter(ctx, req) that annotates out while the run
// waits: a lane_wait whenever its lane or place changes, and a
// lane_wait_end when the wait is over, if it waited at all. It reads the
// lanes' snapshot when the scheduler says they changed (Watch), never on a
// clock: a run that gets in at once annotates nothing.
func enterWatched(ctx context.Context, sched *lanes.Scheduler, req lanes.Request, out *agent.AssistantStream) (*lanes.Task, error) {
	type entered struct {
		task *lanes.Task
		err  error
	}
	done := make(chan entered, 1)
	go func() {
		task, err := sched.Enter(ctx, req)
		done <- entered{task, err}
	}()
	var last LaneWait
	waited := false
	for {
		changed := sched.Watch() // before the snapshot: no change is missed
		if w, ok := laneWaiting(sched.Snapshot(), req.ID); ok && w != last {
			last, waited = w, true
			annotate(ctx, out, AnnotationLaneWait, w)
		}
		select {
		case res := <-done:
			if waited {
				annotate(context.Background(), out, AnnotationLaneWaitEnd, LaneWaitEnd{Entered: res.err == nil})
			}
			return res.task, res.err
		case <-changed:
		}
	}
}
