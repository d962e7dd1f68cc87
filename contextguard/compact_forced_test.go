package contextguard

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// TestCompactForced: a forced compaction summarises a session that fits in
// the kept tail, keeping its last turn (or nothing, for one turn), and
// refuses only a session with nothing to summarise.
func TestCompactForced(t *testing.T) {
	twoTurns := []agent.Message{
		userAt("hello there", t0), assistantText("hi, what shall we do?"),
		userAt("list the files", t0), assistantCall("a", "ls", nil), resultFor("a", "ls", "a.go b.go"), assistantText("a.go and b.go"),
	}
	oneTurn := twoTurns[:2]
	onlySummary := []agent.Message{SummaryMessage("earlier", t0)}
	cases := []struct {
		name        string
		msgs        []agent.Message
		wantKept    int // messages kept verbatim after the summary
		wantFailure CompactFailure
		wantAsked   string // in the summariser's request
	}{
		{"two turns: the last is kept", twoTurns, 4, "", "[User]: hello there"},
		{"one turn: summarised whole", oneTurn, 0, "", "[Assistant]: hi, what shall we do?"},
		{"empty", nil, 0, FailureEmptySession, ""},
		{"only a summary", onlySummary, 0, FailureOnlySummary, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &recorder{reply: "## Goal\nsay hello"}
			res, err := Compact(context.Background(), c.msgs, CompactOptions{Summarize: r.summarize, Force: true, Estimator: NewEstimator()})
			if c.wantFailure != "" {
				var ce *CompactError
				if !errors.As(err, &ce) || ce.Failure != c.wantFailure || r.calls != 0 {
					t.Fatalf("error %v after %d summaries, want %s", err, r.calls, c.wantFailure)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if text, ok := SummaryText(res.Messages[0]); !ok || text != "## Goal\nsay hello" {
				t.Fatalf("first message is not the summary: %+v", res.Messages[0])
			}
			kept := res.Messages[1:]
			if len(kept) != c.wantKept || !reflect.DeepEqual(kept, c.msgs[len(c.msgs)-c.wantKept:]) {
				t.Fatalf("kept %d messages, want the last %d verbatim", len(kept), c.wantKept)
			}
			if res.FirstKept != len(c.msgs)-c.wantKept || res.Summarized != res.FirstKept {
				t.Fatalf("first kept %d, summarised %d", res.FirstKept, res.Summarized)
			}
			if !strings.Contains(r.prompt(), c.wantAsked) {
				t.Fatalf("the summary request lacks %q", c.wantAsked)
			}
			if c.wantKept > 0 && strings.Contains(r.prompt(), "list the files") {
				t.Fatal("the kept turn was sent to the summariser")
			}
		})
	}
}

// TestCompactForcedIgnoresTheSizeChecks: a summary longer than the little
// it replaces still compacts when forced, and fails the no-shrink check
// otherwise.
func TestCompactForcedIgnoresTheSizeChecks(t *testing.T) {
	msgs := []agent.Message{userAt("hi", t0), assistantText("hello")}
	long := strings.Repeat("a long summary ", 200)
	for _, force := range []bool{true, false} {
		r := &recorder{reply: long}
		res, err := Compact(context.Background(), msgs, CompactOptions{Summarize: r.summarize, Force: force, KeepTailTokens: 1})
		switch {
		case force && (err != nil || res.TokensAfter <= res.TokensBefore):
			t.Fatalf("forced: %v, %d → %d tokens", err, res.TokensBefore, res.TokensAfter)
		case !force && err == nil:
			t.Fatal("unforced: a compaction that grows the session happened")
		}
	}
}
