package runner

import (
	"context"
	"testing"
)

// TestEngineFeedFlushWaitsForTheJobsAddedSoFar holds a job inside the engine
// feed: flush must not return while it runs or while another is queued, and
// returns once both have run.
func TestEngineFeedFlushWaitsForTheJobsAddedSoFar(t *testing.T) {
	f := newEngineFeed(t.Context())
	defer f.stop()
	if err := f.flush(t.Context()); err != nil {
		t.Fatalf("flush of an idle feed: %v", err)
	}
	started, release := make(chan struct{}), make(chan struct{})
	ran := make(chan string, 2)
	f.add(func() { close(started); <-release; ran <- "first" })
	f.add(func() { ran <- "second" })
	<-started

	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	if err := f.flush(cancelled); err == nil {
		t.Fatal("flush returned while a job was still running")
	}
	close(release)
	if err := f.flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if len(ran) != 2 {
		t.Fatalf("flush returned after %d of 2 jobs", len(ran))
	}
}
