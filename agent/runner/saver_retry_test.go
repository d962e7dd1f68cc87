package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/steer-tui/steer/persistence"
)

// errFull is a write's failure on a full disk.
var errFull = fmt.Errorf("append message to session s_1: %w", syscall.ENOSPC)

// fakeDisk is the saver's injected writer and retry timer: while full, an
// attempt fails with errFull, without writing, or after writing when
// commitAnyway is set (a commit that landed although it reported a
// failure). Each wait for the retry timer gets its own timer, which the
// test fires (fire).
type fakeDisk struct {
	mu           sync.Mutex
	full         bool
	commitAnyway bool
	attempts     int
	// waits receives the backoff of every wait for the retry timer, and
	// timers its timer.
	waits  chan time.Duration
	timers chan chan time.Time
	// tried receives whether each attempt met a full disk.
	tried chan bool
}

func newFakeDisk() *fakeDisk {
	return &fakeDisk{waits: make(chan time.Duration, 64), timers: make(chan chan time.Time, 64), tried: make(chan bool, 64)}
}

// fire fires the latest retry timer, waiting for one if there is none;
// timers of waits already over are dropped.
func (d *fakeDisk) fire() {
	timer := <-d.timers
	for {
		select {
		case timer = <-d.timers:
			continue
		default:
		}
		break
	}
	timer <- time.Time{}
}

// drainTried forgets the attempts so far.
func (d *fakeDisk) drainTried() {
	for {
		select {
		case <-d.tried:
		default:
			return
		}
	}
}

// inject puts d between s and its writes; call it before anything fails.
func (d *fakeDisk) inject(s *saver) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.attempt = d.attempt
	s.after = func(delay time.Duration) <-chan time.Time {
		timer := make(chan time.Time, 1)
		d.waits <- delay
		d.timers <- timer
		return timer
	}
}

func (d *fakeDisk) attempt(ctx context.Context, write func(context.Context) error) error {
	d.mu.Lock()
	full, commit := d.full, d.commitAnyway
	d.attempts++
	d.mu.Unlock()
	defer func() {
		select {
		case d.tried <- full:
		default: // nobody is counting
		}
	}()
	switch {
	case full && commit:
		if err := write(ctx); err != nil {
			return err
		}
		return errFull
	case full:
		return errFull
	}
	return write(ctx)
}

func (d *fakeDisk) setFull(full, commitAnyway bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.full, d.commitAnyway = full, commitAnyway
}

// written records what the test saver's jobs wrote, and how.
type written struct {
	mu   sync.Mutex
	log  []string
	hold []string
	// ended receives the end of every hold.
	ended chan struct{}
}

func newWritten() *written { return &written{ended: make(chan struct{}, 8)} }

func (w *written) add(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.log = append(w.log, s)
}

func (w *written) holding(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.hold = append(w.hold, fmt.Sprint(err != nil))
	if err == nil {
		w.ended <- struct{}{}
	}
}

func (w *written) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.log, " ")
}

func (w *written) holds() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.hold, " ")
}

// job writes name, or again:name on a retry.
func (w *written) job(name string) saveJob {
	return saveJob{
		write:  func(context.Context) error { w.add(name); return nil },
		again:  func(context.Context) error { w.add("again:" + name); return nil },
		report: func(error) {},
		label:  saveLabel{session: "s_1", what: kindMessage},
	}
}

// startSaver is a saver on d, stopped at the end of the test.
func startSaver(t *testing.T, d *fakeDisk, w *written) *saver {
	t.Helper()
	s := newSaver()
	d.inject(s)
	s.start(context.Background(), w.holding)
	t.Cleanup(func() {
		d.setFull(false, false)
		s.stop()
		<-s.done
	})
	return s
}

func flushed(t *testing.T, s *saver) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.flush(ctx); err != nil {
		t.Fatalf("flush: %v (a kept write must not hold it)", err)
	}
}

// TestSaverKeepsFailedWritesInOrder: writes that fail on a full disk are
// kept, in order, without holding flush up; once the disk works, the next
// write handed over, or the backoff's timer, writes them all in the order
// they came, the failed one through its retry write; the hold is announced
// once and ends only with the last of them.
func TestSaverKeepsFailedWritesInOrder(t *testing.T) {
	tests := []struct {
		name string
		// resume makes the saver retry once the disk works.
		resume func(d *fakeDisk, s *saver, w *written)
		want   string
	}{
		{"the next save retries", func(_ *fakeDisk, s *saver, w *written) { s.add(w.job("c")) },
			"again:a b c"},
		{"the timer retries", func(d *fakeDisk, _ *saver, _ *written) { d.fire() },
			"again:a b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, w := newFakeDisk(), newWritten()
			s := startSaver(t, d, w)
			d.setFull(true, false)
			s.add(w.job("a"))
			flushed(t, s)
			s.add(w.job("b")) // retries a at once, which fails again
			flushed(t, s)
			if got := w.String(); got != "" {
				t.Fatalf("wrote %q on a full disk", got)
			}
			if got := w.holds(); got != "true" {
				t.Fatalf("hold announcements %q, want one", got)
			}
			d.setFull(false, false)
			tt.resume(d, s, w)
			<-w.ended
			if got := w.String(); got != tt.want {
				t.Errorf("wrote %q, want %q", got, tt.want)
			}
			if got := w.holds(); got != "true false" {
				t.Errorf("hold announcements %q, want the hold and its end", got)
			}
			flushed(t, s) // the hold ends before the last write is taken off the queue
			if labels, _ := s.unsaved(); len(labels) != 0 {
				t.Errorf("unsaved %v after everything was written", labels)
			}
		})
	}
}

// TestSaverRetryNeverWritesTwice: a write that reported a failure although
// it committed is retried through its retry write, which the store makes
// idempotent; the plain write runs once.
func TestSaverRetryNeverWritesTwice(t *testing.T) {
	d, w := newFakeDisk(), newWritten()
	s := startSaver(t, d, w)
	d.setFull(true, true)
	s.add(w.job("a"))
	flushed(t, s)
	d.setFull(false, false)
	d.fire()
	<-w.ended
	s.add(w.job("b"))
	flushed(t, s)
	if got, want := w.String(), "a again:a b"; got != want {
		t.Fatalf("wrote %q, want %q", got, want)
	}
}

// TestSaverBacksOff: every failed retry waits longer, up to retryMost.
func TestSaverBacksOff(t *testing.T) {
	d, w := newFakeDisk(), newWritten()
	s := startSaver(t, d, w)
	d.setFull(true, false)
	s.add(w.job("a"))
	var got []time.Duration
	for range 4 {
		got = append(got, <-d.waits)
		d.fire()
	}
	got = append(got, <-d.waits)
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("waits %v, want %v", got, want)
	}
}

func TestRetryDelay(t *testing.T) {
	tests := []struct {
		failures int
		want     time.Duration
	}{
		{1, retryFirst}, {2, 2 * retryFirst}, {5, 16 * retryFirst}, {6, retryMost}, {40, retryMost},
	}
	for _, tt := range tests {
		if got := retryDelay(tt.failures); got != tt.want {
			t.Errorf("retryDelay(%d) = %v, want %v", tt.failures, got, tt.want)
		}
	}
}

// TestSaverDropsWhatCannotSucceed: a write the store will refuse again
// (the fence) is dropped and reported, and the writes behind it go on.
func TestSaverDropsWhatCannotSucceed(t *testing.T) {
	d, w := newFakeDisk(), newWritten()
	s := startSaver(t, d, w)
	var reported error
	stale := saveJob{
		write:  func(context.Context) error { return fmt.Errorf("append: %w", persistence.ErrStaleWriter) },
		report: func(err error) { reported = err },
		label:  saveLabel{session: "s_1", what: kindMessage},
	}
	s.add(stale)
	s.add(w.job("b"))
	flushed(t, s)
	if !errors.Is(reported, persistence.ErrStaleWriter) || w.String() != "b" {
		t.Fatalf("reported %v, wrote %q; want the stale write dropped and b written", reported, w.String())
	}
	if labels, _ := s.unsaved(); len(labels) != 1 {
		t.Fatalf("unsaved %v, want the dropped write", labels)
	}
	if got := w.holds(); got != "" {
		t.Fatalf("a dropped write announced a hold: %q", got)
	}
}

// TestSaverStopsWithWhatItCouldNotSave: stop tries the kept writes once
// more; when the disk is still full they are left, and unsaved names them
// and the error.
func TestSaverStopsWithWhatItCouldNotSave(t *testing.T) {
	d, w := newFakeDisk(), newWritten()
	s := newSaver()
	d.inject(s)
	s.start(context.Background(), w.holding)
	d.setFull(true, false)
	s.add(w.job("a"))
	s.add(w.job("b"))
	flushed(t, s)
	d.mu.Lock()
	before := d.attempts
	d.mu.Unlock()
	s.stop()
	<-s.done
	d.mu.Lock()
	after := d.attempts
	d.mu.Unlock()
	if after != before+1 {
		t.Errorf("stop made %d attempts, want one last retry", after-before)
	}
	labels, err := s.unsaved()
	if len(labels) != 2 || !persistence.DiskFull(err) {
		t.Fatalf("unsaved %v, %v; want both writes and the disk's error", labels, err)
	}
}

func TestKeepForRetry(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"a full disk", errFull, true},
		{"a locked database", fmt.Errorf("x: %w", persistence.ErrBusy), true},
		{"an I/O error", errors.New("disk I/O error"), true},
		{"the fence", fmt.Errorf("x: %w", persistence.ErrStaleWriter), false},
		{"no such session", fmt.Errorf("x: %w", persistence.ErrNotFound), false},
		{"read-only", persistence.ErrReadOnly, false},
		{"a lost lease", fmt.Errorf("x: %w", persistence.ErrLeaseLost), false},
		{"a newer schema", &persistence.NewerSchemaError{}, false},
		{"a corrupt file", &persistence.CorruptError{Err: errors.New("x")}, false},
		{"another owner", fmt.Errorf("x: %w", &persistence.OwnedError{}), false},
		{"given up on", context.Canceled, false},
	}
	for _, tt := range tests {
		if got := keepForRetry(tt.err); got != tt.want {
			t.Errorf("%s: keepForRetry(%v) = %v, want %v", tt.name, tt.err, got, tt.want)
		}
	}
}

func TestUnsavedAccount(t *testing.T) {
	msg := saveLabel{session: "s_1", what: kindMessage}
	tests := []struct {
		name   string
		labels []saveLabel
		err    error
		want   string
	}{
		{"one kind", []saveLabel{msg, msg}, errFull, "not saved: 2 messages of session s_1 (the disk is full?)"},
		{"kinds and sessions in order",
			[]saveLabel{msg, {session: "s_1", what: kindRun}, {what: kindRecord}, {session: "s_2", what: kindMessage}, {session: "s_2", what: kindRun}, {session: "s_2", what: kindRun}},
			errors.New("disk I/O error"),
			"not saved: 1 message, 1 run record and 1 record of session s_1; 1 message and 2 run records of session s_2 (disk I/O error)"},
		{"no error", []saveLabel{{session: "s_3", what: kindRewrite}}, nil, "not saved: 1 transcript rewrite of session s_3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := unsavedAccount(tt.labels, "s_1", tt.err)
			if got.Error() != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
			if found := NotSaved(errors.Join(errors.New("other"), got)); len(found) != 1 || found[0] != got {
				t.Errorf("NotSaved found %v", found)
			}
		})
	}
	if unsavedAccount(nil, "s_1", errFull) != nil {
		t.Error("an account of nothing")
	}
}
