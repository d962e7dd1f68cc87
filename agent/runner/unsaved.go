package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/steer-tui/steer/persistence"
)

// What the saver could not save, and the account a quit gives of it.

// saveKind names what a saver job writes, as the quit's account counts it.
type saveKind string

const (
	kindRecord  saveKind = "" // a run's record, an acknowledgement: "record"
	kindMessage saveKind = "message"
	kindRewrite saveKind = "transcript rewrite"
	kindRun     saveKind = "run record"
)

// noun is the kind's name, plural for n other than 1.
func (k saveKind) noun(n int) string {
	name := string(k)
	if k == kindRecord {
		name = "record"
	}
	if n != 1 {
		name += "s"
	}
	return name
}

// keepForRetry reports whether a write that failed with err may succeed
// later, so that it is kept and retried: a full disk, an I/O error, a lock
// held too long may pass. A write refused by the fence, for a session or
// run that does not exist, on a read-only store, a newer schema, a corrupt
// file or a session another process owns will be refused again, and is
// dropped.
func keepForRetry(err error) bool {
	var (
		newer   *persistence.NewerSchemaError
		corrupt *persistence.CorruptError
		owned   *persistence.OwnedError
	)
	switch {
	case err == nil,
		errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, persistence.ErrStaleWriter), errors.Is(err, persistence.ErrNotFound),
		errors.Is(err, persistence.ErrReadOnly), errors.Is(err, persistence.ErrLeaseLost),
		errors.As(err, &newer), errors.As(err, &corrupt), errors.As(err, &owned):
		return false
	}
	return true
}

// UnsavedError is the account of what a runtime could not save by the time
// it closed: how many writes of each kind, by session, and the last error
// a save met.
type UnsavedError struct {
	// Unsaved counts the writes never made, in the order they came.
	Unsaved []Unsaved
	// Err is the last error a save met.
	Err error
}

// Unsaved is a count of one kind of write of one session.
type Unsaved struct {
	Session string
	// What is the kind of write, plural when Count is not 1 ("messages").
	What  string
	Count int
}

// Error says it in one line: "not saved: 2 messages of session s_1 (the
// disk is full?)".
func (e *UnsavedError) Error() string {
	var sessions []string
	parts := map[string][]string{}
	for _, u := range e.Unsaved {
		if _, ok := parts[u.Session]; !ok {
			sessions = append(sessions, u.Session)
		}
		parts[u.Session] = append(parts[u.Session], fmt.Sprintf("%d %s", u.Count, u.What))
	}
	var b strings.Builder
	b.WriteString("not saved: ")
	for i, id := range sessions {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s of session %s", joinAnd(parts[id]), id)
	}
	if why := unsavedWhy(e.Err); why != "" {
		fmt.Fprintf(&b, " (%s)", why)
	}
	return b.String()
}

// Unwrap returns the last error.
func (e *UnsavedError) Unwrap() error { return e.Err }

// unsavedWhy words the last error for the account.
func unsavedWhy(err error) string {
	switch {
	case err == nil:
		return ""
	case persistence.DiskFull(err):
		return "the disk is full?"
	case errors.Is(err, errGivenUp):
		return errGivenUp.Error()
	}
	return err.Error()
}

// joinAnd joins "a", "b and c".
func joinAnd(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// unsavedAccount counts labels by session (current for those without one)
// and kind, in the order they first came; nil when there are none.
func unsavedAccount(labels []saveLabel, current string, err error) *UnsavedError {
	if len(labels) == 0 {
		return nil
	}
	type key struct {
		session string
		what    saveKind
	}
	var order []key
	counts := map[key]int{}
	for _, l := range labels {
		k := key{l.session, l.what}
		if k.session == "" {
			k.session = current
		}
		if counts[k] == 0 {
			order = append(order, k)
		}
		counts[k]++
	}
	e := &UnsavedError{Err: err}
	for _, k := range order {
		e.Unsaved = append(e.Unsaved, Unsaved{Session: k.session, What: k.what.noun(counts[k]), Count: counts[k]})
	}
	return e
}

// NotSaved returns the accounts of what was not saved that err (Close's)
// holds, one per runtime.
func NotSaved(err error) []*UnsavedError {
	var out []*UnsavedError
	var walk func(error)
	walk = func(err error) {
		var u *UnsavedError
		switch e := err.(type) {
		case nil:
		case interface{ Unwrap() []error }:
			for _, inner := range e.Unwrap() {
				walk(inner)
			}
		default:
			if errors.As(err, &u) {
				out = append(out, u)
			}
		}
	}
	walk(err)
	return out
}

// whatUnsaved is the kind of failure the saver keeps while writes wait for
// a retry: it keeps State().PersistError set until they are all written.
const whatUnsaved = "saving the writes kept for a retry"

// persistError says why the last save failed, while any failure persists.
func (w *writes) persistError() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.persistErr
}

// holding records the saver's hold: err while writes are kept for a retry,
// nil once they are all written. Only then, when nothing else fails, is
// the error cleared and persist_recovered sent.
func (w *writes) holding(err error) {
	w.mu.Lock()
	failing := len(w.failing) > 0
	if err != nil {
		if w.failing == nil {
			w.failing = map[string]string{}
		}
		w.failing[whatUnsaved] = fmt.Sprintf("%s failed: %v", whatUnsaved, err)
		if w.persistErr == "" {
			w.persistErr = w.failing[whatUnsaved]
		}
	} else {
		delete(w.failing, whatUnsaved)
	}
	recovered := err == nil && failing && len(w.failing) == 0
	if recovered {
		w.persistErr = ""
	}
	text := w.persistErr
	w.mu.Unlock()
	if err != nil && !failing { // a job that does not report its own failure
		w.deps.log.Error(whatUnsaved+" failed", "session", w.deps.sessionID(), "error", err)
		w.deps.notify(NoticePersistError, text)
	}
	if recovered {
		w.deps.log.Info("saving works again: every write kept for a retry is saved", "session", w.deps.sessionID())
		w.deps.notify(NoticePersistRecovered, "saving works again")
	}
}

// saved records how a write went: a failure is logged, kept in
// State().PersistError and announced once; once every kind of write that
// failed has succeeded again, the error is cleared and that is announced.
func (w *writes) saved(what string, err error) {
	err = w.givenUp(err)
	w.mu.Lock()
	failing := len(w.failing) > 0
	if err != nil {
		if w.failing == nil {
			w.failing = map[string]string{}
		}
		w.failing[what] = fmt.Sprintf("%s failed: %v", what, err)
		w.persistErr = w.failing[what]
	} else {
		delete(w.failing, what)
		if len(w.failing) == 0 {
			w.persistErr = ""
		}
	}
	text, recovered := w.persistErr, failing && len(w.failing) == 0
	w.mu.Unlock()
	switch {
	case err != nil:
		w.deps.log.Error(what+" failed", "session", w.deps.sessionID(), "error", err)
		if !failing {
			w.deps.notify(NoticePersistError, text)
		}
	case recovered:
		w.deps.log.Info("saving works again", "session", w.deps.sessionID())
		w.deps.notify(NoticePersistRecovered, "saving works again")
	}
}
