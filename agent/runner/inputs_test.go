package runner

import (
	"context"
	"errors"
	"testing"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/agenttest"
)

// TestScoped: a facade write runs within the caller's ctx and the
// runtime's own context, and a runtime context already done is returned
// as it is, so that its end is seen at once, not after a goroutine.
func TestScoped(t *testing.T) {
	done, cancelDone := context.WithCancel(context.Background())
	cancelDone()
	cases := []struct {
		name     string
		ctx      func() context.Context
		base     context.Context
		wantBase bool
	}{
		{name: "a runtime context already done wins", ctx: func() context.Context { return liveCtx(t) }, base: done, wantBase: true},
		{name: "a ctx that never ends adds nothing", ctx: context.Background, base: context.Background(), wantBase: true},
		{name: "a live ctx is merged", ctx: func() context.Context { return liveCtx(t) }, base: context.Background()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, release := scoped(c.ctx(), c.base)
			defer release()
			if (got == c.base) != c.wantBase {
				t.Fatalf("scoped returned the runtime's context: %v, want %v", got == c.base, c.wantBase)
			}
		})
	}
	t.Run("the runtime's end ends a merged context", func(t *testing.T) {
		base, end := context.WithCancelCause(context.Background())
		got, release := scoped(liveCtx(t), base)
		defer release()
		end(errGivenUp)
		<-got.Done()
		if cause := context.Cause(got); !errors.Is(cause, errGivenUp) {
			t.Fatalf("cause %v, want %v", cause, errGivenUp)
		}
	})
	t.Run("the caller's end ends a merged context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		got, release := scoped(ctx, context.Background())
		defer release()
		cancel()
		<-got.Done()
	})
}

func liveCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return ctx
}

// TestInputsHonourTheirContext: an input is refused, and nothing of it
// stored, when its caller's ctx has ended; and after Close it is refused
// whatever ctx the caller passes.
func TestInputsHonourTheirContext(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name  string
		close bool
		ctx   context.Context
	}{
		{name: "a cancelled ctx", ctx: cancelled},
		{name: "after Close, a live ctx", close: true, ctx: liveCtx(t)},
		{name: "after Close, no ctx of its own", close: true, ctx: context.Background()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			store := openStore(t, t.TempDir())
			defer store.Close()
			rt := newRuntime(t, store, agenttest.NewScript(agenttest.Reply().Text("hi").Stop(agent.StopReasonStop)), Options{})
			if c.close {
				if err := rt.Close(context.Background()); err != nil {
					t.Fatal(err)
				}
			} else {
				defer rt.Close(context.Background())
			}
			if _, _, err := rt.FollowUp(c.ctx, "refused"); err == nil {
				t.Fatal("the input was accepted")
			}
			pending, err := store.PendingInputs(context.Background(), rt.SessionID())
			if err != nil || len(pending) != 0 {
				t.Fatalf("stored %d pending inputs (%v), want none", len(pending), err)
			}
		})
	}
}
