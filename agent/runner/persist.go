package runner

import (
	"context"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/persistence"
)

// persist is the first subscriber: it records runs and hands each finished
// message to the saver, which appends it through the fenced write path off
// the event path. The session and run are read here, in event order, so that
// a write lands where its event happened.
func (r *Runtime) persist(ev agent.Event) {
	if e, ok := ev.(agent.ContextReplaced); ok {
		r.mu.Lock()
		r.session.earlier = append(r.session.earlier, replacedEntries(e, r.opts.Now())...)
		r.mu.Unlock()
	}
	if r.store == nil {
		return
	}
	r.mu.Lock()
	job := sessionJob(r.store, r.session, ev, r.opts.Now, r.ends.last) // last: watchRun settled it just before
	r.mu.Unlock()
	if job.write == nil {
		return
	}
	what := "saving the session (" + ev.Type() + ")"
	job.report = func(err error) { r.writes.saved(what, err) }
	r.writes.handed(job, ev)
}

// sessionJob is the write that records ev in session sess of store, at
// now(); its write is nil for an event that is not recorded. lastEnd is how
// the run settled, for agent_end. The report is the caller's.
func sessionJob(store *persistence.Store, sess sessionState, ev agent.Event, now func() time.Time, lastEnd func() (RunEnd, string)) saveJob {
	job := saveJob{label: saveLabel{session: sess.id}}
	switch e := ev.(type) {
	case agent.AgentStart:
		run := persistence.Run{ID: sess.runID, SessionID: sess.id, Trigger: triggerUser, Started: now()} // named by watchRun
		job.label.what = kindRun
		job.write = func(ctx context.Context) error { return store.BeginRun(ctx, run) }
	case agent.MessageEnd:
		msg := e.Message
		job.label.what = kindMessage
		job.write = func(ctx context.Context) error { return store.AppendMessage(ctx, sess.id, sess.runID, msg) }
		job.again = func(ctx context.Context) error { return store.RetryAppendMessage(ctx, sess.id, sess.runID, msg) }
	case agent.ContextReplaced:
		msgs := e.Messages
		job.label.what = kindRewrite
		job.write = func(ctx context.Context) error { return store.RewriteTranscript(ctx, sess.id, sess.runID, msgs) }
	case agent.Annotation:
		if info, ok := e.Data.(AttemptInfo); ok && e.Kind == AnnotationAttemptEnd {
			a := persistence.Attempt{Profile: info.Profile, Model: info.Model, Reason: info.Reason, Decision: info.Decision,
				Duration: time.Duration(info.DurationMs) * time.Millisecond, Ended: now()}
			job.label.what = kindRun
			job.write = func(ctx context.Context) error { return store.AppendAttempt(ctx, sess.runID, a) }
			job.again = func(ctx context.Context) error { return store.RetryAppendAttempt(ctx, sess.runID, a) }
		}
	case agent.AgentEnd:
		settled, errText := lastEnd()
		end := persistence.RunEnd{Outcome: settled.Outcome, Reason: settled.Reason, Error: errText, Ended: now()}
		job.label.what = kindRun
		job.write = func(ctx context.Context) error { return store.FinishRun(ctx, sess.runID, end) }
	}
	return job
}
