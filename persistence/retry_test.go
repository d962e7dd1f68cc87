package persistence

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// TestRetryAppendMessageWritesOnce: the retry of an append that reported a
// failure writes the message exactly once, whether the failed append had
// committed or not; only a retry looks for it, and only as the last entry of
// the same run.
func TestRetryAppendMessageWritesOnce(t *testing.T) {
	answer := agent.Message{Role: agent.RoleAssistant, Content: []agent.Content{agent.Text("done")}, Timestamp: at(3), StopReason: agent.StopReasonStop}
	tests := []struct {
		name string
		// before is what the failed attempt left in the transcript.
		before []agent.Message
		// retry says whether the second write is a retry.
		retry bool
		want  []string
	}{
		{"the failed append committed", []agent.Message{user("hi", 1), answer}, true, []string{"hi", "done"}},
		{"the failed append wrote nothing", []agent.Message{user("hi", 1)}, true, []string{"hi", "done"}},
		{"an earlier equal message is not the last", []agent.Message{answer, user("hi", 1)}, true, []string{"done", "hi", "done"}},
		{"a plain append writes an equal message again", []agent.Message{user("hi", 1), answer}, false, []string{"hi", "done", "done"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.append(t, tt.before...)
			write := f.store.AppendMessage
			if tt.retry {
				write = f.store.RetryAppendMessage
			}
			if err := write(f.ctx, testSession, testRun, answer); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range f.transcript(t) {
				got = append(got, m.TextContent())
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("transcript %q, want %q", got, tt.want)
			}
			if n := f.session(t).MessageCount; n != len(tt.want) {
				t.Errorf("message count %d, want %d", n, len(tt.want))
			}
		})
	}
}

// TestRetryAppendMessageIsFenced: a retry of an append by a run that is no
// longer the session's writer is refused like the first attempt, even when
// that attempt had committed.
func TestRetryAppendMessageIsFenced(t *testing.T) {
	f := newFixture(t)
	msg := user("hi", 1)
	f.append(t, msg)
	if err := f.store.BeginRun(f.ctx, Run{ID: "r2", SessionID: testSession}); err != nil {
		t.Fatal(err)
	}
	if err := f.store.RetryAppendMessage(f.ctx, testSession, testRun, msg); !errors.Is(err, ErrStaleWriter) {
		t.Fatalf("retry by a superseded run = %v, want ErrStaleWriter", err)
	}
	// Another run's equal last message is not this run's append.
	if err := f.store.RetryAppendMessage(f.ctx, testSession, "r2", msg); err != nil {
		t.Fatal(err)
	}
	if n := len(f.transcript(t)); n != 2 {
		t.Fatalf("%d entries, want the message of each run", n)
	}
}

// TestBeginRunTwiceMakesOneRun: beginning a run again (the retry of a
// begin that committed) records it once and keeps it the writer; a run id of
// another session is refused.
func TestBeginRunTwiceMakesOneRun(t *testing.T) {
	f := newFixture(t)
	if err := f.store.BeginRun(f.ctx, Run{ID: "r2", SessionID: testSession}); err != nil {
		t.Fatal(err)
	}
	if err := f.store.BeginRun(f.ctx, Run{ID: "r2", SessionID: testSession}); err != nil {
		t.Fatalf("beginning r2 again: %v", err)
	}
	if err := f.store.AppendMessage(f.ctx, testSession, "r2", user("hi", 1)); err != nil {
		t.Fatalf("r2 is not the writer after its second begin: %v", err)
	}
	runs, err := f.store.ListRuns(f.ctx, RunsOptions{SessionID: testSession})
	if err != nil || len(runs) != 2 {
		t.Fatalf("runs %v (%v), want r1 and r2 once each", runs, err)
	}
	if err := f.store.CreateSession(f.ctx, Session{ID: "s2"}); err != nil {
		t.Fatal(err)
	}
	if err := f.store.BeginRun(f.ctx, Run{ID: "r2", SessionID: "s2"}); err == nil || !strings.Contains(err.Error(), "taken by session s1") {
		t.Fatalf("r2 begun on another session: %v", err)
	}
}

// TestRetryAppendAttemptRecordsOnce: the retry of an attempt that was
// recorded after all is not recorded twice; a different attempt is.
func TestRetryAppendAttemptRecordsOnce(t *testing.T) {
	f := newFixture(t)
	a := Attempt{Profile: "p", Model: "m", Reason: "timeout", Decision: "retry", Ended: at(1)}
	b := a
	b.Ended = at(2)
	for _, step := range []struct {
		retry bool
		a     Attempt
	}{{false, a}, {true, a}, {true, b}} {
		write := f.store.AppendAttempt
		if step.retry {
			write = f.store.RetryAppendAttempt
		}
		if err := write(f.ctx, testRun, step.a); err != nil {
			t.Fatal(err)
		}
	}
	got, err := f.store.RunAttempts(f.ctx, testRun)
	if err != nil || len(got) != 2 {
		t.Fatalf("attempts %+v (%v), want a and b", got, err)
	}
}

func TestDiskFull(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("write: %w", syscall.ENOSPC), true},
		{errors.New("database or disk is full"), false}, // text alone is not the code
		{ErrBusy, false},
		{nil, false},
	}
	for _, tt := range tests {
		if got := DiskFull(tt.err); got != tt.want {
			t.Errorf("DiskFull(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

// TestDiskFullNamesAFullDatabase: an append that meets a full database
// (its page limit, as a full disk would) fails with an error DiskFull
// recognises, and writes nothing.
func TestDiskFullNamesAFullDatabase(t *testing.T) {
	f := newFixture(t)
	var pages int
	if err := f.store.writer.QueryRowContext(f.ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.writer.ExecContext(f.ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, pages)); err != nil {
		t.Fatal(err)
	}
	err := f.store.AppendMessage(f.ctx, testSession, testRun, user(strings.Repeat("x", 64<<10), 1))
	if !DiskFull(err) {
		t.Fatalf("append to a full database = %v, want a disk-full error", err)
	}
	if n := len(f.transcript(t)); n != 0 {
		t.Fatalf("%d entries after the failed append", n)
	}
}
