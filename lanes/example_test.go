package lanes_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/steer-tui/steer/lanes"
)

// A run enters its lanes, runs under the task's context reporting
// progress, and leaves. Work on its own session from inside the run takes
// the direct path; the queued one is refused instead of waiting for itself.
func Example() {
	sched := lanes.New(lanes.Options{MaxConcurrent: 4})
	task, err := sched.Enter(context.Background(), lanes.Request{
		ID: "run-1", Session: "s1", Trigger: "user", RunTimeout: 48 * time.Hour,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer task.Leave()
	ctx := task.Context()
	task.Progress() // on every event of the run

	fmt.Println("direct compaction inside:", sched.Direct(ctx, "s1") == nil)
	_, err = sched.Enter(ctx, lanes.Request{ID: "compaction", Session: "s1", Trigger: "overflow"})
	fmt.Println("queued compaction inside refused:", errors.Is(err, lanes.ErrReentrant))

	for _, l := range sched.Snapshot().Lanes {
		fmt.Printf("%s: %d/%d running, %d waiting\n", l.Name, len(l.Running), l.Cap, len(l.Waiting))
	}
	// Output:
	// direct compaction inside: true
	// queued compaction inside refused: true
	// global: 1/4 running, 0 waiting
	// subagent: 0/8 running, 0 waiting
	// session:s1: 1/1 running, 0 waiting
}

func ExamplePriorityOf() {
	for _, trigger := range []string{"user", "follow_up", "heartbeat"} {
		fmt.Println(trigger, lanes.PriorityOf(trigger))
	}
	// Output:
	// user foreground
	// follow_up normal
	// heartbeat background
}
