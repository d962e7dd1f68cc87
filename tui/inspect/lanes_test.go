package inspect

import (
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/lanes"
	"github.com/steer-tui/steer/persistence"
)

// busyLanes: process 4242 runs r_1 (session s_1) in the global lane of cap
// 1, and r_2 (session s_2) waits for it; the sub-agent lane is idle.
func busyLanes() runner.LanesView {
	run := lanes.Entry{ID: "r_1", Session: "s_1", Trigger: "user", Priority: lanes.Foreground, Enqueued: epoch, Started: epoch.Add(time.Second)}
	wait := lanes.Entry{ID: "r_2", Session: "s_2", Trigger: "rpc", Priority: lanes.Normal, Enqueued: epoch.Add(2 * time.Second)}
	return runner.LanesView{Processes: []persistence.ProcessLanes{{ProcessID: "p1", PID: 4242, Snapshot: lanes.Snapshot{Taken: epoch, Lanes: []lanes.Lane{
		{Name: "global", Kind: lanes.KindGlobal, Cap: 1, Running: []lanes.Entry{run}, Waiting: []lanes.Entry{wait}},
		{Name: "subagent", Kind: lanes.KindSubAgent, Cap: 2},
		{Name: "session:s_1", Kind: lanes.KindSession, Session: "s_1", Cap: 1, Running: []lanes.Entry{run}},
		{Name: "session:s_2", Kind: lanes.KindSession, Session: "s_2", Cap: 1, Running: []lanes.Entry{{ID: "r_2", Session: "s_2",
			Trigger: "rpc", Enqueued: epoch.Add(2 * time.Second), Started: epoch.Add(2 * time.Second)}}},
	}}}}}
}

func TestLanesTable(t *testing.T) {
	table := lanesTable(busyLanes(), epoch.Add(10*time.Second))
	want := []string{
		"global|pid 4242|r_1|user|foreground|running|1s|9s",
		"global|pid 4242|r_2|rpc|normal|waiting|8s|",
		"subagent|pid 4242||||idle (cap 2)",
		"session:s_1|pid 4242|r_1|user|foreground|running|1s|9s",
		"session:s_2|pid 4242|r_2|rpc|normal|running|0s|8s",
	}
	var got []string
	for _, r := range table.Rows {
		got = append(got, strings.Join(cells(r), "|"))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if table.Summary != "1 process: 1 running, 1 waiting" {
		t.Errorf("summary %q", table.Summary)
	}
	if d := table.Rows[1].Detail[0]; !strings.Contains(d, "run r_2 of session s_2 (trigger rpc, priority normal) in lane global of pid 4242 (cap 1): waited 8s") {
		t.Errorf("detail %q", d)
	}
}

// TestLanesMarkStalledRuns: the run of a session the runner calls stalled
// is marked in each lane it runs in, with how long it has been silent.
func TestLanesMarkStalledRuns(t *testing.T) {
	v := busyLanes()
	v.Stalled = []runner.StalledRun{{SessionID: "s_1", Since: epoch.Add(-2 * time.Minute)}}
	table := lanesTable(v, epoch.Add(10*time.Second))
	want := []string{
		"global|pid 4242|r_1|user|foreground|stalled 2m10s|1s|9s",
		"global|pid 4242|r_2|rpc|normal|waiting|8s|",
		"subagent|pid 4242||||idle (cap 2)",
		"session:s_1|pid 4242|r_1|user|foreground|stalled 2m10s|1s|9s",
		"session:s_2|pid 4242|r_2|rpc|normal|running|0s|8s",
	}
	var got []string
	for _, r := range table.Rows {
		got = append(got, strings.Join(cells(r), "|"))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if table.Summary != "1 process: 1 running, 1 waiting, 1 stalled" {
		t.Errorf("summary %q", table.Summary)
	}
	if d := table.Rows[0].Detail; len(d) != 2 || !strings.Contains(d[1], "stalled: no progress for 2m10s; aborted after 6m00s") {
		t.Errorf("detail %q", d)
	}
}
