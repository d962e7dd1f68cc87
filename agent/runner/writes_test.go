package runner

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"
)

// writesNotes collects the notices a writes announces.
type writesNotes struct {
	mu    sync.Mutex
	kinds []NoticeKind
}

func (n *writesNotes) notify(kind NoticeKind, _ string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.kinds = append(n.kinds, kind)
}

func newTestWrites(notes *writesNotes) *writes {
	return newWrites(true, writeDeps{log: slog.New(slog.DiscardHandler), sessionID: func() string { return "s_1" }, notify: notes.notify})
}

// TestWritesAccountOfFailures: State().PersistError and the persist
// notices follow the writes that failed, by kind: one persist_error while
// any kind fails, one persist_recovered once every kind (the saver's hold
// among them) has succeeded again.
func TestWritesAccountOfFailures(t *testing.T) {
	disk := errors.New("disk full")
	type step struct {
		hold bool   // the saver's hold (holding) instead of a save (saved)
		what string // the save's kind
		err  error
		// wantErr is what PersistError holds after the step ("" none).
		wantErr string
	}
	tests := []struct {
		name      string
		steps     []step
		wantNotes []NoticeKind
	}{
		{"a save that works says nothing", []step{{what: "a", wantErr: ""}}, nil},
		{"one failure, once however often", []step{
			{what: "a", err: disk, wantErr: "a failed: disk full"},
			{what: "a", err: disk, wantErr: "a failed: disk full"},
		}, []NoticeKind{NoticePersistError}},
		{"a failure then a success", []step{
			{what: "a", err: disk, wantErr: "a failed: disk full"},
			{what: "a", wantErr: ""},
		}, []NoticeKind{NoticePersistError, NoticePersistRecovered}},
		{"recovered once every kind works", []step{
			{what: "a", err: disk, wantErr: "a failed: disk full"},
			{what: "b", err: disk, wantErr: "b failed: disk full"},
			{what: "a", wantErr: "b failed: disk full"},
			{what: "b", wantErr: ""},
		}, []NoticeKind{NoticePersistError, NoticePersistRecovered}},
		{"the saver's hold and its end", []step{
			{hold: true, err: disk, wantErr: whatUnsaved + " failed: disk full"},
			{hold: true, wantErr: ""},
		}, []NoticeKind{NoticePersistError, NoticePersistRecovered}},
		{"a hold keeps the save's error and outlasts it", []step{
			{what: "a", err: disk, wantErr: "a failed: disk full"},
			{hold: true, err: disk, wantErr: "a failed: disk full"},
			{what: "a", wantErr: "a failed: disk full"},
			{hold: true, wantErr: ""},
		}, []NoticeKind{NoticePersistError, NoticePersistRecovered}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var notes writesNotes
			w := newTestWrites(&notes)
			for i, s := range tt.steps {
				if s.hold {
					w.holding(s.err)
				} else {
					w.saved(s.what, s.err)
				}
				if got := w.persistError(); got != s.wantErr {
					t.Fatalf("step %d: PersistError = %q, want %q", i, got, s.wantErr)
				}
			}
			if !slices.Equal(notes.kinds, tt.wantNotes) {
				t.Errorf("notices = %v, want %v", notes.kinds, tt.wantNotes)
			}
		})
	}
}

// TestWritesGivenUp: a write cancelled because the writes were given up on
// says so; other errors, and cancellations before, are left as they are.
func TestWritesGivenUp(t *testing.T) {
	w := newTestWrites(&writesNotes{})
	other := errors.New("locked")
	if got := w.givenUp(context.Canceled); got != context.Canceled {
		t.Errorf("before the end: givenUp(Canceled) = %v, want it unchanged", got)
	}
	w.end()
	if got := w.givenUp(context.Canceled); !errors.Is(got, errGivenUp) || !errors.Is(got, context.Canceled) {
		t.Errorf("after the end: givenUp(Canceled) = %v, want it to say it was given up on", got)
	}
	if got := w.givenUp(other); got != other {
		t.Errorf("givenUp(%v) = %v, want it unchanged", other, got)
	}
	if got := w.givenUp(nil); got != nil {
		t.Errorf("givenUp(nil) = %v", got)
	}
	if err := w.ctx.Err(); err == nil {
		t.Error("the write context lives on after end")
	}
}

// TestWritesQuitRefusesInputsFirst: the quit signal cancels the saving of
// inputs at once and the other writes only after quitWait.
func TestWritesQuitRefusesInputsFirst(t *testing.T) {
	quit, signal := context.WithCancel(context.Background())
	w := newTestWrites(&writesNotes{})
	w.quitWait = QuitWait // far beyond the test
	w.start(quit)
	defer w.end()
	signal()
	<-w.inputCtx.Done()
	if !errors.Is(context.Cause(w.inputCtx), errGivenUp) {
		t.Errorf("inputs' cause = %v, want errGivenUp", context.Cause(w.inputCtx))
	}
	if err := w.ctx.Err(); err != nil {
		t.Errorf("the writes were given up on at once (%v), want quitWait for them", err)
	}
}

// TestWritesStopAccountsForWhatIsLeft: a job the saver could not write is
// in the account stop leaves; without one, there is none.
func TestWritesStopAccountsForWhatIsLeft(t *testing.T) {
	tests := []struct {
		name string
		err  error // the write's
		want string
	}{
		{"all written", nil, ""},
		{"one kept for a retry that never worked", errors.New("disk I/O error"), "not saved: 1 message of session s_1 (disk I/O error)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newTestWrites(&writesNotes{})
			w.start(nil)
			w.add(saveJob{write: func(context.Context) error { return tt.err }, report: func(error) {},
				label: saveLabel{what: kindMessage}})
			if err := w.flush(context.Background()); err != nil {
				t.Fatal(err)
			}
			if err := w.stop(context.Background()); err != nil {
				t.Fatalf("stop = %v", err)
			}
			got := ""
			if err := w.notSaved("s_1"); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("notSaved = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestWritesAwaitSavedWithoutAStore: with nothing to save, a tool call
// never waits for its message.
func TestWritesAwaitSavedWithoutAStore(t *testing.T) {
	w := newWrites(false, writeDeps{log: slog.New(slog.DiscardHandler)})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := w.awaitSaved(ctx, "call_1"); err != nil {
		t.Errorf("awaitSaved = %v, want nil at once", err)
	}
}
