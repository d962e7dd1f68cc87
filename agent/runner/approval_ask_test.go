package runner

import (
	"context"
	"errors"
	"testing"

	"github.com/steer-tui/steer/agent/tools"
)

// approvalsProbe is the runtime as approvals see it: it counts the holds
// and says when a request waits.
type approvalsProbe struct {
	asker   string
	held    chan struct{} // a request waits (hold was called)
	resumed chan struct{} // the wait ended (its resume was called)
}

func newApprovalsProbe(asker string) (*approvals, *approvalsProbe) {
	p := &approvalsProbe{asker: asker, held: make(chan struct{}, 1), resumed: make(chan struct{}, 1)}
	return newApprovals(approvalDeps{
		asker: func() string { return p.asker },
		hold: func() func() {
			p.held <- struct{}{}
			return func() { p.resumed <- struct{}{} }
		},
	}), p
}

// TestApprovalsAsk: a request waits, holding the run's clock, until it is
// answered, the run is aborted or no one can answer any more.
func TestApprovalsAsk(t *testing.T) {
	aborted := errors.New("aborted by the user")
	tests := []struct {
		name    string
		end     func(a *approvals, abort context.CancelCauseFunc)
		want    tools.Decision
		wantErr error
	}{
		{"allowed once", func(a *approvals, _ context.CancelCauseFunc) { _ = a.answer("c1", ApproveOnce) }, ApproveOnce, nil},
		{"allowed for the session", func(a *approvals, _ context.CancelCauseFunc) { _ = a.answer("c1", ApproveSession) }, ApproveSession, nil},
		{"denied", func(a *approvals, _ context.CancelCauseFunc) { _ = a.answer("c1", ApproveDeny) }, ApproveDeny, nil},
		{"aborted", func(_ *approvals, abort context.CancelCauseFunc) { abort(aborted) }, ApproveDeny, aborted},
		{"no one can answer", func(a *approvals, _ context.CancelCauseFunc) { a.refuse(ErrNoOneCanAnswer) }, ApproveDeny, ErrNoOneCanAnswer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, p := newApprovalsProbe("s_child")
			ctx, abort := context.WithCancelCause(context.Background())
			defer abort(nil)
			type result struct {
				d   tools.Decision
				err error
			}
			done := make(chan result, 1)
			go func() {
				d, err := a.ask(ctx, tools.Request{CallID: "c1", Tool: "write"})
				done <- result{d, err}
			}()
			<-p.held
			if got := a.pending(); len(got) != 1 || got[0].ID != "c1" || got[0].SessionID != "s_child" || got[0].Paths == nil {
				t.Fatalf("pending = %+v, want c1 of s_child with its paths never null", got)
			}
			tt.end(a, abort)
			res := <-done
			<-p.resumed
			if res.d != tt.want || !errors.Is(res.err, tt.wantErr) {
				t.Errorf("ask = %v, %v; want %v, %v", res.d, res.err, tt.want, tt.wantErr)
			}
			if got := a.pending(); len(got) != 0 {
				t.Errorf("pending after the wait = %+v, want none", got)
			}
		})
	}
}

// TestApprovalsAnswerOnlyWhatWaits: an answer names a waiting call; a
// second answer, or one for no call, is an error.
func TestApprovalsAnswerOnlyWhatWaits(t *testing.T) {
	a, p := newApprovalsProbe("")
	done := make(chan error, 1)
	go func() {
		_, err := a.ask(context.Background(), tools.Request{CallID: "c1"})
		done <- err
	}()
	<-p.held
	if err := a.answer("c2", ApproveOnce); err == nil {
		t.Error("answering a call that does not wait succeeded")
	}
	if err := a.answer("c1", ApproveOnce); err != nil {
		t.Fatalf("answer = %v", err)
	}
	if err := a.answer("c1", ApproveOnce); err == nil {
		t.Error("a second answer succeeded")
	}
	if err := <-done; err != nil {
		t.Errorf("ask = %v", err)
	}
}

// TestApprovalsRefusedBeforeAsking: once no one can answer, a request is
// refused at once, without holding the run's clock.
func TestApprovalsRefusedBeforeAsking(t *testing.T) {
	a, p := newApprovalsProbe("")
	a.refuse(ErrNoOneCanAnswer)
	a.refuse(errors.New("a later reason")) // the first one stays
	d, err := a.ask(context.Background(), tools.Request{CallID: "c1"})
	if d != ApproveDeny || !errors.Is(err, ErrNoOneCanAnswer) {
		t.Errorf("ask = %v, %v; want deny with ErrNoOneCanAnswer", d, err)
	}
	select {
	case <-p.held:
		t.Error("a refused request held the run's clock")
	default:
	}
}
