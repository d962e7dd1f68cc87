package persistence_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/persistence"
)

// The life of a run: the run becomes the session's writer, a queued steer is
// stored before it is acknowledged, and its delivery retires it.
func Example() {
	dir, _ := os.MkdirTemp("", "steer-state")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	store, err := persistence.Open(dir, persistence.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer store.Close()

	_ = store.CreateSession(ctx, persistence.Session{ID: "s1", Workspace: "/src/app"})
	_ = store.BeginRun(ctx, persistence.Run{ID: "run1", SessionID: "s1", Trigger: "user"})
	_ = store.AppendMessage(ctx, "s1", "run1", agent.UserMessage("fix the flaky test", time.Now()))

	// The user types while the run works: durable before it is acknowledged.
	item := agent.QueueItem{ID: "q_1", Kind: agent.QueueSteer, Text: "only touch the tests"}
	_ = store.AddPendingInput(ctx, "s1", item)

	// The loop injects it; persisting the message retires the queued input.
	msg := agent.UserMessage(item.Text, time.Now())
	msg.QueueItemID = item.ID
	_ = store.AppendMessage(ctx, "s1", "run1", msg)

	// A newer run takes over the session; the old one can no longer write.
	_ = store.BeginRun(ctx, persistence.Run{ID: "run2", SessionID: "s1", Trigger: "user"})
	err = store.AppendMessage(ctx, "s1", "run1", agent.UserMessage("late", time.Now()))
	fmt.Println("stale writer refused:", errors.Is(err, persistence.ErrStaleWriter))

	pending, _ := store.PendingInputs(ctx, "s1")
	msgs, _ := store.LoadTranscript(ctx, "s1")
	session, _ := store.Session(ctx, "s1")
	fmt.Println("pending:", len(pending))
	fmt.Println("messages:", len(msgs))
	fmt.Println("title:", session.Title)
	// Output:
	// stale writer refused: true
	// pending: 0
	// messages: 2
	// title: fix the flaky test
}

// Two steer processes on one state directory — here two stores, which behave
// the same: each session has one owner at a time, and everybody sees who it
// is.
func ExampleStore_ClaimSession() {
	dir, _ := os.MkdirTemp("", "steer-state")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	first, _ := persistence.Open(dir, persistence.Options{})
	defer first.Close()
	second, _ := persistence.Open(dir, persistence.Options{})
	defer second.Close()

	// The process that creates a session owns it.
	_ = first.CreateSession(ctx, persistence.Session{ID: "s1", Workspace: "/src/app"})
	_, err := second.ClaimSession(ctx, "s1")
	var owned *persistence.OwnedError
	fmt.Println("second refused:", errors.As(err, &owned) && owned.PID == os.Getpid())

	list, _ := second.ListSessions(ctx, persistence.ListOptions{})
	fmt.Println("listed as owned:", list[0].ID, list[0].Owner.Live())
	_, err = second.LatestUnownedSession(ctx, "/src/app")
	fmt.Println("nothing to continue:", errors.Is(err, persistence.ErrNotFound))

	// Claiming a session the store holds returns its claim.
	claim, _ := first.ClaimSession(ctx, "s1")
	_ = claim.Release(ctx)
	claim, err = second.ClaimSession(ctx, "s1")
	fmt.Println("second owns", claim.SessionID(), err == nil)
	// Output:
	// second refused: true
	// listed as owned: s1 true
	// nothing to continue: true
	// second owns s1 true
}
