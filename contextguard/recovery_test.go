package contextguard

import "testing"

func TestNextOverflowStep(t *testing.T) {
	cases := []struct {
		name   string
		s      OverflowState
		want   OverflowStep
		reason string
	}{
		{"first overflow: compact", OverflowState{}, StepCompact, ""},
		{"compacted before it was sent: retry once without compacting", OverflowState{CompactedInAttempt: true}, StepRetry, ""},
		{"overflow after the chain's compaction, oversized results: cut them", OverflowState{CompactedInAttempt: true, Recovered: true, OversizedToolResults: true}, StepTruncateToolResults, ""},
		{"overflow after the chain's compaction, nothing to cut: give up", OverflowState{CompactedInAttempt: true, Recovered: true}, StepGiveUp, "context_overflow"},
		{"no second compaction for one request", OverflowState{Recovered: true, Compactions: 1}, StepGiveUp, "context_overflow"},
		{"overflow after the retry, oversized results: cut them", OverflowState{CompactedInAttempt: true, Recovered: true, OversizedToolResults: true}, StepTruncateToolResults, ""},
		{"results already cut: give up", OverflowState{CompactedInAttempt: true, Recovered: true, OversizedToolResults: true, TruncatedToolResults: true}, StepGiveUp, "context_overflow"},
		{"compaction failed, oversized results: cut them", OverflowState{CompactionFailed: true, OversizedToolResults: true}, StepTruncateToolResults, ""},
		{"compaction failed, nothing to cut: compaction_failure", OverflowState{CompactionFailed: true}, StepGiveUp, "compaction_failure"},
		{"compaction failed, results cut: compaction_failure", OverflowState{CompactionFailed: true, OversizedToolResults: true, TruncatedToolResults: true}, StepGiveUp, "compaction_failure"},
		{"third overflow compaction of the run is the last", OverflowState{Compactions: 2}, StepCompact, ""},
		{"no fourth overflow compaction", OverflowState{Compactions: 3}, StepGiveUp, "context_overflow"},
		{"no fourth, but results to cut", OverflowState{Compactions: 3, OversizedToolResults: true}, StepTruncateToolResults, ""},
	}
	for _, c := range cases {
		got := NextOverflowStep(c.s)
		if got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		if got == StepGiveUp && c.s.GiveUpReason() != c.reason {
			t.Errorf("%s: gives up with %s, want %s", c.name, c.s.GiveUpReason(), c.reason)
		}
	}
	if StepTruncateToolResults.String() != "truncate_tool_results" || OverflowStep(7).String() != "unknown" {
		t.Error("step names")
	}
}

func TestCompactAfterTimeout(t *testing.T) {
	cases := []struct {
		prompt, window, done int
		want                 bool
	}{
		{130_001, 200_000, 0, true},  // over 65 %
		{130_000, 200_000, 0, false}, // exactly 65 % is not more
		{50_000, 200_000, 0, false},
		{150_000, 200_000, 1, true},
		{150_000, 200_000, 2, false}, // at most two per run
		{150_000, 0, 0, false},       // unknown window
	}
	for _, c := range cases {
		if got := CompactAfterTimeout(c.prompt, c.window, c.done); got != c.want {
			t.Errorf("CompactAfterTimeout(%d, %d, %d) = %v", c.prompt, c.window, c.done, got)
		}
	}
}
