package contextguard

import (
	"reflect"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestSnapshotRule(t *testing.T) {
	session := []agent.Message{userAt("a", t0), assistantText("b")}
	halfCompacted := []agent.Message{SummaryMessage("half", t0)}
	cases := []struct {
		name             string
		compactingBefore bool
		compactingAfter  bool
		duringCompaction bool // the timeout hit while a compaction ran
		trusted          bool
		want             SnapshotChoice
	}{
		{"quiet snapshot, timeout during compaction: fall back", false, false, true, true, ChosePreCompaction},
		{"quiet snapshot, timeout outside compaction: current", false, false, false, true, ChoseCurrent},
		{"compaction running before: untrusted", true, false, true, false, ChoseCurrent},
		{"compaction started meanwhile: untrusted", false, true, true, false, ChoseCurrent},
		{"compaction throughout: untrusted", true, true, true, false, ChoseCurrent},
		{"untrusted, timeout outside compaction", true, true, false, false, ChoseCurrent},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			looks := []bool{c.compactingBefore, c.compactingAfter}
			compacting := func() bool { v := looks[0]; looks = looks[1:]; return v }
			snap := TakeSnapshot(compacting, func() []agent.Message { return session })
			if len(looks) != 0 {
				t.Fatal("compacting was not asked before and after")
			}
			if snap.Trusted != c.trusted || !reflect.DeepEqual(snap.Messages, session) {
				t.Fatalf("snapshot %+v", snap)
			}
			msgs, choice := snap.AfterTimeout(halfCompacted, c.duringCompaction)
			if choice != c.want {
				t.Fatalf("chose %d, want %d", choice, c.want)
			}
			want := halfCompacted
			if c.want == ChosePreCompaction {
				want = session
			}
			if !reflect.DeepEqual(msgs, want) {
				t.Fatal("wrong messages for the choice")
			}
		})
	}
}

func TestSnapshotIsACopy(t *testing.T) {
	session := []agent.Message{userAt("a", t0)}
	snap := TakeSnapshot(func() bool { return false }, func() []agent.Message { return session })
	session[0] = userAt("changed", t0)
	if snap.Messages[0].TextContent() != "a" {
		t.Fatal("the snapshot shares the session's slice")
	}
}
