package engines

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestCompactOutcome: every way a compaction ends is one outcome, OK only
// when the engine compacted.
func TestCompactOutcome(t *testing.T) {
	done := CompactResult{Compacted: true, Messages: transcript()}
	cases := []struct {
		name              string
		aborted, timedOut bool
		res               CompactResult
		err               error
		want              CompactOutcome
	}{
		{"compacted", false, false, done, nil, CompactOutcome{OK: true, Result: done}},
		{"compacted just as the limit passed", false, true, done, nil, CompactOutcome{OK: true, Result: done}},
		{"an error", false, false, CompactResult{}, errors.New("boom"), CompactOutcome{Reason: "boom"}},
		{"the limit", false, true, CompactResult{}, context.DeadlineExceeded,
			CompactOutcome{TimedOut: true, Reason: "the compaction did not finish within 1s"}},
		{"the caller's abort", true, false, CompactResult{}, context.Canceled,
			CompactOutcome{Aborted: true, Reason: "the compaction was cancelled"}},
		{"nothing to compact, with a reason", false, false, CompactResult{Reason: "all recent"}, nil,
			CompactOutcome{Result: CompactResult{Reason: "all recent"}, Reason: "all recent"}},
		{"nothing to compact, without one", false, false, CompactResult{}, nil,
			CompactOutcome{Reason: "the context engine compacted nothing"}},
		{"compacted to nothing", false, false, CompactResult{Compacted: true}, nil,
			CompactOutcome{Result: CompactResult{Compacted: true}, Reason: "the context engine compacted nothing"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := compactOutcome(c.aborted, c.timedOut, time.Second, c.res, c.err)
			if got.OK != c.want.OK || got.Reason != c.want.Reason || got.TimedOut != c.want.TimedOut ||
				got.Aborted != c.want.Aborted || got.Result.Compacted != c.want.Result.Compacted || got.Result.Reason != c.want.Result.Reason {
				t.Fatalf("outcome %+v, want %+v", got, c.want)
			}
		})
	}
}

// TestCompactSafely: an engine's compact that hangs, panics or fails comes
// back as {ok: false} within the safety limit, never as a panic or a hang,
// and a hang cut off by the limit quarantines nothing.
func TestCompactSafely(t *testing.T) {
	const limit = 20 * time.Millisecond
	cases := []struct {
		name         string
		mode         mode
		wantTimedOut bool
		wantReason   string
	}{
		{"hangs, ignoring its context", hangs, true, "did not finish within 20ms"},
		{"waits for its context", waitsForStop, true, "did not finish within 20ms"},
		{"panics", panics, false, "panicked"},
		{"fails", fails, false, "the fake failed compact"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, map[Method]mode{MethodCompact: c.mode})
			got := CompactSafely(context.Background(), f, CompactRequest{Messages: transcript()}, limit)
			if got.OK || got.TimedOut != c.wantTimedOut || !strings.Contains(got.Reason, c.wantReason) {
				t.Fatalf("outcome %+v, want not ok, timed out %v, reason with %q", got, c.wantTimedOut, c.wantReason)
			}
		})
	}
	t.Run("compacts", func(t *testing.T) {
		f := newFake(t, nil)
		got := CompactSafely(context.Background(), f, CompactRequest{Messages: transcript()}, limit)
		if !got.OK || got.Result.Summary != fakeMark {
			t.Fatalf("outcome %+v, want the engine's compaction", got)
		}
	})
	t.Run("the caller aborts", func(t *testing.T) {
		f := newFake(t, map[Method]mode{MethodCompact: waitsForStop})
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-f.started; cancel() }()
		got := CompactSafely(ctx, f, CompactRequest{Messages: transcript()}, time.Hour)
		if got.OK || !got.Aborted || got.TimedOut {
			t.Fatalf("outcome %+v, want aborted", got)
		}
	})
}

// TestAnExternalEngineThatNeverAnswersCompact: an external engine that
// never answers compact, behind a Guard whose own limit is longer, comes
// back as {ok: false} at the safety limit; the engine is not quarantined,
// and answers the next request itself.
func TestAnExternalEngineThatNeverAnswersCompact(t *testing.T) {
	cfg, stderr := helperConfig(t, "never-compacts")
	ext := NewExternal(cfg)
	t.Cleanup(func() { ext.Close() })
	ev := &events{}
	g := NewGuard("helper", ext, testLegacy(), GuardOptions{Timeout: time.Hour, OnQuarantine: ev.add})

	got := CompactSafely(context.Background(), g, CompactRequest{Reason: CompactThreshold, Messages: transcript()}, 200*time.Millisecond)
	if got.OK || !got.TimedOut {
		t.Fatalf("outcome %+v, want a timeout", got)
	}
	stderr.await(t, "ignoring compact")
	if q, on := g.Quarantine(context.Background()); on || len(ev.list()) != 0 {
		t.Fatalf("the safety timeout quarantined the engine: %+v", q)
	}
	res, err := g.Assemble(context.Background(), AssembleRequest{SystemPrompt: "still here", Messages: transcript()})
	if err != nil || res.SystemPromptAddition != "still here" {
		t.Fatalf("the next request: %+v, %v; want the engine's own answer", res, err)
	}
}
