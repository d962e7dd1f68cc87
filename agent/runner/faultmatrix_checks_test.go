package runner

// The fault matrix's checks (faultmatrix_test.go): each reads what the
// runtimes wrote to the store back and holds it against what the provider
// and the drivers did, so it is true for every interleaving of the runs.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/persistence"
)

// matrixOutcomes are the outcomes a run record may end with.
var matrixOutcomes = map[string]bool{
	OutcomeCompleted: true, OutcomeFailed: true, OutcomeCancelled: true, OutcomeTimeout: true, OutcomeHardTimeout: true, OutcomeBlocked: true,
}

// matrixDisk is what the store holds of one session.
type matrixDisk struct {
	transcript []agent.Message
	pending    []agent.QueueItem
	runs       []persistence.RunSummary
}

func loadMatrixDisk(t *testing.T, store *persistence.Store, s *matrixSession) matrixDisk {
	t.Helper()
	ctx, id := context.Background(), s.rt.SessionID()
	var d matrixDisk
	var err error
	if d.transcript, err = store.LoadTranscript(ctx, id); err != nil {
		t.Errorf("session %d: %v", s.idx, err)
	}
	if d.pending, err = store.PendingInputs(ctx, id); err != nil {
		t.Errorf("session %d: %v", s.idx, err)
	}
	if d.runs, err = store.ListRuns(ctx, persistence.RunsOptions{SessionID: id, Limit: 10 * matrixRuns}); err != nil {
		t.Errorf("session %d: %v", s.idx, err)
	}
	return d
}

// checkMatrixOutcomes: every run record of every session ended with a
// defined outcome; a session has as many cancelled as the aborts sent to
// it (each ends the run it lands in, and nothing else cancels one); and
// each run driven ended as its last message says: aborted only when an
// abort was sent during it, an answer completed, an error a failure of
// some kind. (The run an abort lands in is not known for sure: the run's
// first request may come before its start reaches the runner.)
// It returns the count of each outcome recorded.
func checkMatrixOutcomes(t *testing.T, store *persistence.Store, sessions []*matrixSession) map[string]int {
	t.Helper()
	ctx := context.Background()
	counts := map[string]int{}
	for _, s := range sessions {
		runs, err := store.ListRuns(ctx, persistence.RunsOptions{SessionID: s.rt.SessionID(), Limit: 10 * matrixRuns})
		if err != nil {
			t.Errorf("session %d: %v", s.idx, err)
		}
		cancelled, aborts := 0, 0
		for _, r := range runs {
			counts[r.Outcome]++
			if r.Outcome == OutcomeCancelled {
				cancelled++
			}
			if r.Ended.IsZero() || !matrixOutcomes[r.Outcome] {
				t.Errorf("session %d: run record %s ended %v with outcome %q", s.idx, r.ID, r.Ended, r.Outcome)
			}
		}
		for _, res := range s.results {
			aborts += res.aborts
		}
		if cancelled != aborts {
			t.Errorf("session %d: %d run records cancelled, %d aborts sent", s.idx, cancelled, aborts)
		}
		for _, res := range s.results {
			rec, err := store.Run(ctx, res.id)
			if err != nil {
				t.Errorf("run %d: %v", res.run, err)
				continue
			}
			stop := res.last.StopReason
			var want []string
			switch {
			case stop == agent.StopReasonAborted:
				want = []string{OutcomeCancelled}
			case stop == agent.StopReasonError:
				want = []string{OutcomeFailed, OutcomeTimeout, OutcomeHardTimeout, OutcomeBlocked}
			default:
				want = []string{OutcomeCompleted}
			}
			if (res.aborts == 0 && stop == agent.StopReasonAborted) || !slices.Contains(want, rec.Outcome) {
				t.Errorf("run %d (plan %s): %d aborts sent, ended %q %q, recorded %q; want an outcome in %q",
					res.run, matrixPlanString(s.m.plans[res.run]), res.aborts, stop, res.last.ErrorMessage, rec.Outcome, want)
			}
		}
	}
	return counts
}

// checkMatrixToolRuns: no tool call ran twice; every call of an answer
// that asked for tools ran once, but those of a batch the run was aborted
// in, which ran at most once; none cut off mid-stream ran; and nothing
// ran that the provider did not ask for.
func checkMatrixToolRuns(t *testing.T, log []matrixRequest, ran map[string]int) {
	t.Helper()
	asked := map[string]bool{}
	for _, r := range log {
		delivered := r.step.fault == faultAnswerTool && !r.cancelled
		held := slices.Contains(r.step.calls, actHold)
		for _, id := range r.calls {
			asked[id] = true
			n := ran[id]
			switch {
			case n > 1:
				t.Errorf("tool call %s ran %d times", id, n)
			case !delivered && n != 0:
				t.Errorf("tool call %s, cut off mid-stream, ran", id)
			case delivered && !held && n != 1:
				t.Errorf("tool call %s (run %d, batch %v) ran %d times, want once", id, r.run, r.step.calls, n)
			}
		}
	}
	for id, n := range ran {
		if !asked[id] {
			t.Errorf("tool call %s, which no answer asked for, ran %d times", id, n)
		}
	}
}

// matrixView is what a message says, for comparing the transcript in
// memory with the one on disk.
func matrixView(m agent.Message) string {
	var ids []string
	for _, c := range m.ToolCalls() {
		ids = append(ids, c.ID)
	}
	return fmt.Sprintf("%s %s %q calls %v result of %q", m.Role, m.StopReason, m.TextContent(), ids, m.ToolCallID)
}

// checkMatrixTranscript: the transcript on disk is the session's
// transcript in memory, message for message.
func checkMatrixTranscript(t *testing.T, s *matrixSession, disk matrixDisk) {
	t.Helper()
	mem := s.rt.State().Messages
	for i := range max(len(mem), len(disk.transcript)) {
		var inMem, onDisk string
		if i < len(mem) {
			inMem = matrixView(mem[i])
		}
		if i < len(disk.transcript) {
			onDisk = matrixView(disk.transcript[i])
		}
		if inMem != onDisk {
			t.Errorf("session %d, message %d of %d in memory, %d on disk: in memory %s, on disk %s",
				s.idx, i, len(mem), len(disk.transcript), inMem, onDisk)
			return
		}
	}
}

// checkMatrixToolResults: on disk, every call of an answer that asked for
// tools has exactly one result, holding what its run returned (a call
// that did not run: an error); no call stands twice; no result answers a
// call of a message cut off by an error, or no call at all; and every
// such answer the provider delivered is there.
func checkMatrixToolResults(t *testing.T, s *matrixSession, log []matrixRequest, disk matrixDisk, ran map[string]int, returned map[string]string) {
	t.Helper()
	calls, results := map[string]int{}, map[string][]agent.Message{}
	for _, m := range disk.transcript {
		switch m.Role {
		case agent.RoleAssistant:
			for _, c := range m.ToolCalls() {
				if m.StopReason == agent.StopReasonToolUse {
					calls[c.ID]++
				}
			}
		case agent.RoleToolResult:
			results[m.ToolCallID] = append(results[m.ToolCallID], m)
		}
	}
	for id, n := range calls {
		got := results[id]
		switch {
		case n != 1:
			t.Errorf("session %d: tool call %s stands %d times on disk", s.idx, id, n)
		case len(got) != 1:
			t.Errorf("session %d: tool call %s has %d results on disk, want one", s.idx, id, len(got))
		case ran[id] == 1 && got[0].TextContent() != returned[id]:
			t.Errorf("session %d: tool call %s returned %q, its result on disk says %q", s.idx, id, returned[id], got[0].TextContent())
		case ran[id] == 0 && !got[0].IsError:
			t.Errorf("session %d: tool call %s never ran, yet its result on disk is no error: %q", s.idx, id, got[0].TextContent())
		}
	}
	for id := range results {
		if calls[id] == 0 {
			t.Errorf("session %d: a result on disk answers %s, no call of an answer that asked for tools", s.idx, id)
		}
	}
	for _, r := range log {
		if r.session != s.idx || r.step.fault != faultAnswerTool || r.cancelled {
			continue
		}
		for _, id := range r.calls {
			if calls[id] == 0 {
				t.Errorf("session %d: tool call %s of run %d, delivered, is not on disk", s.idx, id, r.run)
			}
		}
	}
}

// checkMatrixInputs: every input the session accepted — prompts,
// steering, follow-ups — is on disk exactly once: as a user message of
// the transcript, or, when an abort came before it was taken, as a
// pending input, which the session's queue still holds; the queue holds
// nothing that is not pending on disk; and no user message on disk was
// never sent.
func checkMatrixInputs(t *testing.T, s *matrixSession, disk matrixDisk) {
	t.Helper()
	said := map[string]int{}
	for _, m := range disk.transcript {
		if m.Role == agent.RoleUser {
			said[m.TextContent()]++
		}
	}
	pending, pendingIDs := map[string]int{}, map[string]bool{}
	for _, it := range disk.pending {
		pending[it.Text]++
		pendingIDs[it.ID] = true
	}
	queued := map[string]bool{}
	for _, it := range s.rt.State().Queue {
		queued[it.ID] = true
	}
	sent := map[string]bool{}
	for _, in := range s.sent {
		sent[in.text] = true
		if n := said[in.text] + pending[in.text]; n != 1 {
			t.Errorf("session %d: %q (%s) is on disk %d times (%d in the transcript, %d pending), want once",
				s.idx, in.text, kindOf(in), n, said[in.text], pending[in.text])
		}
		if pending[in.text] > 0 && in.id != "" && !pendingIDs[in.id] {
			t.Errorf("session %d: %q is pending under another id than %s", s.idx, in.text, in.id)
		}
	}
	for id := range pendingIDs {
		if !queued[id] {
			t.Errorf("session %d: input %s is pending on disk but not in the session's queue", s.idx, id)
		}
	}
	for id := range queued {
		if !pendingIDs[id] {
			t.Errorf("session %d: input %s is queued but not pending on disk", s.idx, id)
		}
	}
	for text := range said {
		if !sent[text] {
			t.Errorf("session %d: the transcript holds a user message nobody sent: %q", s.idx, text)
		}
	}
}

func kindOf(in sentInput) string {
	if in.kind == "" {
		return "prompt"
	}
	return string(in.kind)
}

// matrixKinds are the faults the matrix counts, in the order it logs them;
// each must have happened at least once.
var matrixKinds = []string{"429", "429-retry-after", "529", "529-after-text", "529-after-tool-call",
	"timeout-after-headers", "timeout-before-headers", "overflow", "engine-crash", "tool-kill",
	"abort-stream", "abort-tool", "abort-retry-wait", "steer-mid-batch", "follow-up"}

// matrixServed names the provider fault a request was served, "" for an
// answer.
func matrixServed(r matrixRequest) string {
	if r.step.overflow {
		return "overflow"
	}
	return map[fault]string{faultRateLimited: "429", faultRateLimitedSoon: "429-retry-after", faultOverloaded: "529",
		faultOverloadedMidStream: "529-after-text", faultToolCallCut: "529-after-tool-call",
		faultIdleAfterHeaders: "timeout-after-headers", faultIdleBeforeHeaders: "timeout-before-headers"}[r.step.fault]
}

// matrixFaultCounts counts the faults served and the scripted points
// reached, as "kind=n,…", and fails on a kind that never happened.
func matrixFaultCounts(t *testing.T, log []matrixRequest, reached map[string]int) string {
	t.Helper()
	counts := map[string]int{}
	for _, r := range log {
		if kind := matrixServed(r); kind != "" {
			counts[kind]++
		}
	}
	var out []string
	for _, kind := range matrixKinds {
		n := counts[kind] + reached[kind]
		if n == 0 {
			t.Errorf("the matrix never reached %s", kind)
		}
		out = append(out, fmt.Sprintf("%s=%d", kind, n))
	}
	return strings.Join(out, ",")
}

// matrixPlanString says what a plan scripts, for a failure's message.
func matrixPlanString(plan []matrixStep) string {
	var out []string
	for _, st := range plan {
		kind := matrixServed(matrixRequest{step: st})
		switch {
		case st.abortStream:
			kind = "abort-stream"
		case st.abortWait:
			kind = "529+abort-retry-wait"
		case st.fault == faultAnswerTool:
			kind = fmt.Sprintf("tools%v", st.calls)
		case kind == "":
			kind = faults[st.fault].name
		}
		if st.crash {
			kind += "+engine-crash"
		}
		out = append(out, kind)
	}
	return "[" + strings.Join(out, " ") + "]"
}
