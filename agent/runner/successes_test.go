package runner

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
)

// TestSuccessIsRecordedAfterTheRun (S30): a run of two requests on p:a —
// a tool call, then the answer — records p:a's successes once it has
// ended, not as each request answers: while the second request streams,
// every ledger write started so far has landed and none is a success.
func TestSuccessIsRecordedAfterTheRun(t *testing.T) {
	ledger := &failover.MemLedger{}
	var rt *Runtime
	var mu sync.Mutex
	n := 0
	midRun := -1 // p:a's successes as the second request began
	stream := scripted(func(_ context.Context, w *agent.StreamWriter, _ agent.Model, _ agent.StreamOptions) {
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		if first {
			w.ToolCallStart("call-1", "nothing")
			w.ToolCallDelta("{}")
			w.EndBlock()
			w.Finish(agent.StopReasonToolUse)
			return
		}
		rt.profiles.wait() // the first answer's success, were it written now
		st, _ := ledger.Load(context.Background(), "p:a")
		mu.Lock()
		midRun = st.Successes
		mu.Unlock()
		w.TextDelta("done")
		w.Finish(agent.StopReasonStop)
	})
	var err error
	rt, err = New(context.Background(), Options{
		Providers: []Provider{{Name: "p", Models: []agent.Model{primary}, Stream: stream, Profiles: []Profile{{ID: "p:a"}}}},
		Model:     "p/big", Ledger: ledger, Now: time.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := rt.Prompt(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, rt)
	rt.profiles.wait()
	st, _ := ledger.Load(context.Background(), "p:a")
	mu.Lock()
	defer mu.Unlock()
	if n != 2 || midRun != 0 || st.Successes != 2 {
		t.Errorf("requests %d, successes during the run %d and after it %d; want 2, 0, 2", n, midRun, st.Successes)
	}
}

// TestSuccessOutsideARunIsRecordedAtOnce: a request that belongs to no run
// (a manual compaction's summary) has nothing to wait for.
func TestSuccessOutsideARunIsRecordedAtOnce(t *testing.T) {
	ledger := &failover.MemLedger{}
	rt, err := New(context.Background(), Options{
		Providers: []Provider{{Name: "p", Models: []agent.Model{primary}, Stream: (&byProfile{}).stream, Profiles: []Profile{{ID: "p:a"}}}},
		Model:     "p/big", Ledger: ledger, Now: time.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	rt.profiles.recordSuccess("p:a")
	rt.profiles.wait()
	if st, _ := ledger.Load(context.Background(), "p:a"); st.Successes != 1 {
		t.Errorf("successes = %d, want 1", st.Successes)
	}
}
