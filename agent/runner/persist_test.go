package runner

import (
	"testing"
	"time"

	"github.com/steer-tui/steer/agent"
)

// TestSessionJob: which events persist records, as what kind of write (the
// quit's account counts them), and which writes have a retry of their own
// (appends are not safe to repeat).
func TestSessionJob(t *testing.T) {
	tests := []struct {
		name      string
		ev        agent.Event
		want      saveKind
		recorded  bool
		wantAgain bool
	}{
		{"a run starts", agent.AgentStart{}, kindRun, true, false},
		{"a message ends", agent.MessageEnd{Message: agent.UserMessage("hi", time.Time{})}, kindMessage, true, true},
		{"the context is replaced", agent.ContextReplaced{}, kindRewrite, true, false},
		{"an attempt ends", agent.Annotation{Kind: AnnotationAttemptEnd, Data: AttemptInfo{Profile: "p"}}, kindRun, true, true},
		{"another annotation", agent.Annotation{Kind: AnnotationLaneWait, Data: LaneWait{}}, kindRecord, false, false},
		{"a run ends", agent.AgentEnd{}, kindRun, true, false},
		{"a delta", agent.MessageUpdate{}, kindRecord, false, false},
	}
	sess := sessionState{id: "s_1", runID: "r_1"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := func() time.Time { return time.Unix(1, 0) }
			ends := 0
			lastEnd := func() (RunEnd, string) { ends++; return RunEnd{}, "" }
			job := sessionJob(nil, sess, tt.ev, now, lastEnd)
			if got := job.write != nil; got != tt.recorded {
				t.Fatalf("recorded = %v, want %v", got, tt.recorded)
			}
			if job.label != (saveLabel{session: "s_1", what: tt.want}) {
				t.Errorf("label = %+v, want %q of s_1", job.label, tt.want)
			}
			if got := job.again != nil; got != tt.wantAgain {
				t.Errorf("has a retry of its own = %v, want %v", got, tt.wantAgain)
			}
			if _, end := tt.ev.(agent.AgentEnd); (ends == 1) != end {
				t.Errorf("lastEnd read %d times, want it read for agent_end only", ends)
			}
		})
	}
}
