package runner

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
	"github.com/steer-tui/steer/contextguard"
	"github.com/steer-tui/steer/contextguard/engines"
)

// TestManualCompactionOfASmallSession: /compact summarises a session that
// fits in the kept tail many times over, keeping only its last turn; one of
// a single turn is summarised whole; only an empty one is refused.
func TestManualCompactionOfASmallSession(t *testing.T) {
	cases := []struct {
		name     string
		msgs     []agent.Message
		wantKept []agent.Message
		wantErr  string
	}{
		{"three turns: the last is kept", history(3, 200), history(3, 200)[4:], ""},
		{"one turn: summarised whole", history(1, 200), nil, ""},
		{"empty: refused", nil, nil, "nothing to compact: the session is empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &overflowing{limit: 1_000_000}
			rt, notes := guardRuntime(t, p, 200_000)
			if err := rt.agent.ReplaceMessages(c.msgs); err != nil {
				t.Fatal(err)
			}
			end, err := rt.Compact(context.Background(), "")
			if c.wantErr != "" {
				if err == nil || err.Error() != c.wantErr || end.Result != nil || end.ErrorMessage != c.wantErr {
					t.Fatalf("compaction %+v, error %v; want %q", end, err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if end.Result == nil || !strings.Contains(end.Result.Summary, "summary of the earlier talk") {
				t.Fatalf("compaction_end %+v", end)
			}
			msgs := rt.State().Messages
			if !contextguard.IsSummary(msgs[0]) {
				t.Fatalf("the transcript does not open with the summary: %q", msgs[0].TextContent())
			}
			if len(msgs[1:]) != len(c.wantKept) {
				t.Fatalf("kept %d messages, want %d", len(msgs[1:]), len(c.wantKept))
			}
			for i, m := range c.wantKept {
				if msgs[1+i].TextContent() != m.TextContent() {
					t.Fatalf("kept message %d is %q, want %q", i, msgs[1+i].TextContent(), m.TextContent())
				}
			}
			if got := end.Summary(); !strings.HasPrefix(got, "compacted: ") {
				t.Fatalf("the notice reads %q", got)
			}
			if len(kinds(*notes, AnnotationCompactionStart)) != 1 || len(kinds(*notes, AnnotationCompactionEnd)) != 1 {
				t.Fatal("want one compaction_start and one compaction_end")
			}
		})
	}
}

func TestCompactionEndSummary(t *testing.T) {
	done := &CompactionResult{TokensBefore: 1_234, TokensAfter: 300}
	cases := []struct {
		end  CompactionEnd
		want string
	}{
		{CompactionEnd{Reason: "manual", Result: done}, "compacted: 1.2k → 300 tokens"},
		{CompactionEnd{Reason: "overflow", Result: done}, "compacted (overflow): 1.2k → 300 tokens"},
		{CompactionEnd{Reason: "overflow", Result: &CompactionResult{TokensBefore: 1_500_000, TokensAfter: 40_000}},
			"compacted (overflow): 1.5M → 40.0k tokens"},
		{CompactionEnd{Reason: "manual", Aborted: true}, "compaction (manual) cancelled"},
		{CompactionEnd{Reason: "threshold", ErrorMessage: "the summary failed"}, "compaction (threshold) did not happen: the summary failed"},
	}
	for _, c := range cases {
		if got := c.end.Summary(); got != c.want {
			t.Errorf("%+v reads %q, want %q", c.end, got, c.want)
		}
	}
}

// TestCancelledManualCompactionKeepsTheSession: a /compact cancelled while
// (or just after) its summary is written leaves the transcript as it was
// and reports the cancellation.
func TestCancelledManualCompactionKeepsTheSession(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e := &owningEngine{log: &callLog{}}
	e.compact = func(_ context.Context, req engines.CompactRequest) (engines.CompactResult, error) {
		cancel() // Esc, as the summary comes
		return engines.CompactResult{Compacted: true, Summary: ownerSummary,
			Messages: []agent.Message{agent.UserMessage(ownerSummary, agenttest.Epoch), req.Messages[len(req.Messages)-1]}}, nil
	}
	rt, _, _ := engineRuntime(t, &loggingProvider{log: e.log}, e)
	before := rt.State().Messages
	end, err := rt.Compact(ctx, "")
	if !errors.Is(err, context.Canceled) || !end.Aborted || end.Result != nil {
		t.Fatalf("compaction %+v, error %v; want it cancelled, with no result", end, err)
	}
	if after := rt.State().Messages; !reflect.DeepEqual(after, before) {
		t.Fatalf("the cancelled compaction changed the session: %d messages, had %d", len(after), len(before))
	}
	if got := end.Summary(); got != "compaction (manual) cancelled" {
		t.Fatalf("the notice reads %q", got)
	}
}
