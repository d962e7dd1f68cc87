package inspect

import (
	"strings"
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/inspector"
)

func note(kind string, data any) agent.Event { return agent.Annotation{Kind: kind, Data: data} }

// rotation is the events of the auth-rotation scenario: primary fails with
// auth, the run rotates to backup, which answers.
var rotation = []agent.Event{
	agent.AgentStart{},
	note(runner.AnnotationAttemptStart, runner.AttemptInfo{Profile: "scripted:primary", Model: "scripted/echo", Attempt: 1}),
	note(runner.AnnotationAttemptEnd, runner.AttemptInfo{Profile: "scripted:primary", Model: "scripted/echo", Attempt: 1,
		Reason: "auth", Decision: "rotate_profile", DurationMs: 3}),
	note(runner.AnnotationFailover, runner.AttemptInfo{Reason: "auth", Decision: "rotate_profile", From: "scripted:primary", To: "scripted:backup"}),
	note(runner.AnnotationAttemptStart, runner.AttemptInfo{Profile: "scripted:backup", Model: "scripted/echo", Attempt: 2}),
}

var answered = []agent.Event{
	note(runner.AnnotationAttemptEnd, runner.AttemptInfo{Profile: "scripted:backup", Model: "scripted/echo", Attempt: 2, DurationMs: 1200}),
	agent.AgentEnd{Messages: []agent.Message{{Role: agent.RoleAssistant, StopReason: agent.StopReasonStop}}},
	note(runner.AnnotationRunEnd, runner.RunEnd{RunID: "r_1", Outcome: runner.OutcomeCompleted}),
}

// TestTraceShowsTheOutcomeAndReason: a run's summary says how it ended as
// its run_end said, with the reason and the error.
func TestTraceShowsTheOutcomeAndReason(t *testing.T) {
	failed := agent.Message{Role: agent.RoleAssistant, StopReason: agent.StopReasonError, ErrorMessage: "prompt is too long"}
	var l TraceLog
	l = l.Record([]agent.Event{agent.AgentStart{}, agent.AgentEnd{Messages: []agent.Message{failed}}}, epoch)
	if s := traceTable(l.Runs(), 0, epoch).Summary; !strings.HasSuffix(s, "ended after 0ms: prompt is too long") {
		t.Errorf("summary before run_end: %q", s)
	}
	l = l.Record([]agent.Event{note(runner.AnnotationRunEnd, runner.RunEnd{Outcome: runner.OutcomeFailed, Reason: "context_overflow"})}, epoch)
	if s := traceTable(l.Runs(), 0, epoch).Summary; !strings.HasSuffix(s, "failed (context_overflow) after 0ms: prompt is too long") {
		t.Errorf("summary after run_end: %q", s)
	}
	ended := epoch.Add(time.Second)
	runs := inspector.RunsFromRecords([]runner.RunView{{ID: "r_1", Started: epoch, Ended: &ended, Outcome: runner.OutcomeHardTimeout, Reason: "timeout",
		Error: "request timed out"}})
	if s := traceTable(runs, 0, epoch).Summary; !strings.HasSuffix(s, "hard_timeout (timeout) after 1.0s: request timed out") {
		t.Errorf("summary of a record: %q", s)
	}
}

// rows renders a run's trace as lines of cells.
func rows(runs []inspector.Run, i int, now time.Time) []string {
	var out []string
	for _, r := range traceTable(runs, i, now).Rows {
		out = append(out, strings.Join(cells(r), "|"))
	}
	return out
}

// TestTraceLog: the trace of a run grows with its events: the attempt that
// rotated and why, the failover, the attempt under way, then its answer.
func TestTraceLog(t *testing.T) {
	var l TraceLog
	l = l.Record(rotation, epoch)
	running := []string{
		"#1|attempt|scripted:primary|scripted/echo|auth|rotate_profile|3ms",
		"|↻ failover|scripted:primary → scripted:backup||auth|rotate_profile",
		"#2|attempt|scripted:backup|scripted/echo|running…",
	}
	if got := rows(l.Runs(), 0, epoch.Add(time.Second)); strings.Join(got, "\n") != strings.Join(running, "\n") {
		t.Fatalf("while running:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(running, "\n"))
	}
	if s := traceTable(l.Runs(), 0, epoch.Add(2*time.Second)).Summary; !strings.Contains(s, "running for 2s") {
		t.Errorf("summary while running: %q", s)
	}
	l = l.Record(answered, epoch.Add(1300*time.Millisecond))
	got := rows(l.Runs(), 0, epoch.Add(2*time.Second))
	if want := "#2|attempt|scripted:backup|scripted/echo|answered||1.2s"; got[2] != want {
		t.Fatalf("the answer: %q, want %q", got[2], want)
	}
	if s := traceTable(l.Runs(), 0, epoch).Summary; !strings.HasSuffix(s, "completed in 1.3s") {
		t.Errorf("summary when done: %q", s)
	}
	if d := traceTable(l.Runs(), 0, epoch).Rows[0].Detail[0]; !strings.Contains(d, "failed after 3ms (auth); decided: rotate to the next auth profile") {
		t.Errorf("the rotation's detail: %q", d)
	}
}

// TestTraceLogRuns: each run is a trace of its own, newest first; a
// compaction outside a run (/compact) is one too; the log keeps the last
// maxTraceRuns.
func TestTraceLogRuns(t *testing.T) {
	var l TraceLog
	l = l.Record(append(append([]agent.Event{}, rotation...), answered...), epoch)
	l = l.Record([]agent.Event{note(runner.AnnotationCompactionEnd, runner.CompactionEnd{Reason: "manual",
		Result: &runner.CompactionResult{TokensBefore: 12300, TokensAfter: 4100}, TokensBefore: 12300, TokensAfter: 4100})}, epoch)
	runs := l.Runs()
	if len(runs) != 2 || runs[0].Trigger != "compaction" || runs[1].Trigger != "user" {
		t.Fatalf("runs %+v", runs)
	}
	if got := rows(runs, 0, epoch); len(got) != 1 || got[0] != "|⟲ compaction|||12.3k → 4.1k|manual" {
		t.Fatalf("the compaction's trace: %q", got)
	}
	before := l
	for range maxTraceRuns {
		l = l.Record([]agent.Event{agent.AgentStart{}, agent.AgentEnd{}}, epoch)
	}
	if l.Len() != maxTraceRuns || before.Len() != 2 {
		t.Fatalf("the log keeps %d runs (a copy made before: %d)", l.Len(), before.Len())
	}
}

// TestRunsFromRecords: a stored run's attempts, with the failover between
// them put back from the decision.
func TestRunsFromRecords(t *testing.T) {
	ended := epoch.Add(2 * time.Second)
	runs := inspector.RunsFromRecords([]runner.RunView{{ID: "r_1", Trigger: "user", Started: epoch, Ended: &ended, Outcome: "completed",
		Attempts: []runner.AttemptView{
			{Profile: "scripted:primary", Model: "scripted/echo", Reason: "auth", Decision: "rotate_profile", DurationMs: 3},
			{Profile: "scripted:backup", Model: "scripted/echo", Reason: "model_not_found", Decision: "fallback_model", DurationMs: 5},
			{Profile: "scripted:primary", Model: "scripted/tiny", DurationMs: 900},
		}}})
	want := []string{
		"#1|attempt|scripted:primary|scripted/echo|auth|rotate_profile|3ms",
		"|↻ failover|scripted:primary → scripted:backup||auth|rotate_profile",
		"#2|attempt|scripted:backup|scripted/echo|model_not_found|fallback_model|5ms",
		"|↻ failover||scripted/echo → scripted/tiny|model_not_found|fallback_model",
		"#3|attempt|scripted:primary|scripted/tiny|answered||900ms",
	}
	if got := rows(runs, 0, epoch); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("trace:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
