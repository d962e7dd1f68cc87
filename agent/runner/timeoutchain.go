package runner

import (
	"context"
	"slices"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/contextguard/engines"
	"github.com/steer-tui/steer/failover"
)

// The timeout chain (seed 000 §1, §5.2, §6.3): a model that times out while
// the prompt fills more than 65 % of the window is most likely slow because
// of the prompt, so the session is compacted first and the request retried
// on the same profile; only a timeout after that goes to the failover
// decision, which does not rotate the profile for a timeout without other
// evidence, and falls back to the next model. At most
// contextguard.MaxTimeoutCompactions per run.
//
// The timeout was written to the shared ledger (the provider was reached),
// so the profile is cooling down when the compaction's summary and the retry
// ask for it. Neither is refused for that cooldown: the request carries an
// exemption for the profile and model whose timeout asked for the
// compaction, and that candidate goes first while its window is a
// timeout's. A summary that times out itself falls back along the model
// chain like any request.

// timeoutChain is one guarded request's place in the chain. The guard sets
// heavy before each try; the attempt loop sets asked when it stops for the
// compaction (the guard reads it once the attempts' stream has ended).
type timeoutChain struct {
	heavy     bool        // the prompt is over 65 % of the window and the run may compact for a timeout
	compacted bool        // this try is the retry after a timeout compaction
	asked     exemption   // who timed out and asked for the compaction
	exempt    []exemption // whose timeout cooldowns the summary and the retry pass
	// made counts the attempts of the request's earlier tries, so that the
	// numbering (and the attempt budget) goes on across a compaction.
	made int
}

// exemption names a profile serving a model whose timeout cooldown a request
// does not wait for.
type exemption struct{ profile, model string }

type exemptKey struct{}

// context carries the chain's exemptions to the attempts made under it.
func (tc *timeoutChain) context(ctx context.Context) context.Context {
	if len(tc.exempt) == 0 {
		return ctx
	}
	return context.WithValue(ctx, exemptKey{}, slices.Clone(tc.exempt))
}

// compactsFor says whether a timeout on this try stops the attempt loop for
// a compaction (the decision's timeout_compact rule), and skipsRetry whether
// the same-profile retry of a timeout is skipped: a heavy prompt compacts
// instead, and the retry after the compaction was that retry.
func (tc *timeoutChain) compactsFor() bool { return tc != nil && tc.heavy }

func (tc *timeoutChain) skipsRetry(reason failover.Reason) bool {
	return tc != nil && reason == failover.ReasonTimeout && (tc.heavy || tc.compacted)
}

// passTimeoutCooldowns makes the exempted candidates of m eligible while
// their window is a timeout's, and puts them first: the retry after a
// timeout compaction goes to the profile that timed out.
func passTimeoutCooldowns(ctx context.Context, cands []failover.Candidate, m agent.Model, now time.Time) []failover.Candidate {
	exempt, _ := ctx.Value(exemptKey{}).([]exemption)
	for _, ex := range exempt {
		if ex.model != m.ID {
			continue
		}
		i := slices.IndexFunc(cands, func(c failover.Candidate) bool { return c.ID == ex.profile })
		if i < 0 {
			continue
		}
		c := cands[i]
		if c.Eligibility.Waits() && c.State.Status(now).Reason == failover.ReasonTimeout {
			c.Eligibility = failover.EligibleOK
		}
		if c.Eligibility == failover.EligibleOK {
			cands = slices.Insert(slices.Delete(cands, i, i+1), 0, c)
		}
	}
	return cands
}

// compactFor is the guard's side of the chain: when the attempt loop
// stopped for a timeout compaction, compact — under a context that exempts
// the profile that timed out, and asked naming it — and retry (true). A
// compaction that fails still retries, but as an ordinary request: the
// decision then goes on as the ledger stands.
func (tc *timeoutChain) compactFor(ctx context.Context, compact func(ctx context.Context, asked exemption) bool) bool {
	if tc.asked.profile == "" {
		return false // the attempt loop went past the timeout: it fell back or gave up
	}
	asked := tc.asked
	tc.asked, tc.exempt = exemption{}, append(tc.exempt, asked)
	if !compact(tc.context(ctx), asked) {
		tc.exempt = slices.DeleteFunc(tc.exempt, func(e exemption) bool { return e == asked })
	}
	tc.compacted = true
	return ctx.Err() == nil
}

// compactForTimeout runs the request's timeout chain with the guard's
// compaction (compactRequest), counted as the run's timeout compaction.
func (r *Runtime) compactForTimeout(ctx context.Context, q *guarded, final agent.AssistantEvent) bool {
	return q.timeout.compactFor(ctx, func(ctx context.Context, asked exemption) bool {
		r.keeper.run.counted(engines.CompactTimeout)
		r.log.Info("the model timed out with the prompt filling most of the window; compacting before retrying",
			"profile", asked.profile, "model", asked.model)
		return r.keeper.compactRequest(ctx, q, engines.CompactTimeout, final.Partial.ErrorMessage)
	})
}
