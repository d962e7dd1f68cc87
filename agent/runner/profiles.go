package runner

import (
	"context"
	"errors"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
)

// Profile is one auth profile of a provider: one credential (SPEC §5.3).
type Profile struct {
	// ID names it in the shared ledger, e.g. "openai:main".
	ID string
	// APIKey is sent with its requests; "" for a keyless server.
	APIKey string
}

// profiles are the provider's profiles in the configured order; a provider
// configured without any has one keyless profile "<name>:default".
func (p Provider) profiles() []Profile {
	if len(p.Profiles) > 0 {
		return p.Profiles
	}
	return []Profile{{ID: p.Name + ":default"}}
}

// key is the API key of profile id.
func (p Provider) key(id string) string {
	for _, pr := range p.Profiles {
		if pr.ID == id {
			return pr.APIKey
		}
	}
	return ""
}

// providerOf is the provider that serves m.
func (r *Runtime) providerOf(m agent.Model) Provider {
	for _, p := range r.opts.Providers {
		if p.Name == m.Provider {
			return p
		}
	}
	return Provider{Name: m.Provider}
}

// modelChain is m, then the configured fallbacks that resolve to another
// usable model, each once.
func (r *Runtime) modelChain(m agent.Model) []agent.Model {
	chain := []agent.Model{m}
	for _, ref := range r.opts.Fallbacks {
		fm, err := r.opts.Resolve(ref)
		if err != nil || r.unusable(fm) != nil || r.streamOf(fm) == nil {
			continue
		}
		dup := false
		for _, c := range chain {
			dup = dup || c.Ref() == fm.Ref()
		}
		if !dup {
			chain = append(chain, fm)
		}
	}
	return chain
}

// orderProfiles orders the profiles that may serve model m by the shared
// ledger (SPEC §5.3), writing back cooldowns that have ended.
func (r *Runtime) orderProfiles(ctx context.Context, prov Provider, m agent.Model) []failover.Candidate {
	now := r.opts.Now()
	in := failover.OrderInput{
		Profiles: map[string]failover.Profile{}, States: map[string]failover.ProfileState{},
		Want: failover.Want{Provider: prov.Name, Model: m.ID},
	}
	for _, p := range prov.profiles() {
		in.Order = append(in.Order, p.ID)
		in.Profiles[p.ID] = failover.Profile{ID: p.ID, Provider: prov.Name}
		st, err := r.ledger.Load(ctx, p.ID)
		if err != nil {
			r.log.Warn("reading the auth-profile ledger failed", "profile", p.ID, "error", err)
			continue
		}
		in.States[p.ID] = st
	}
	usable, skipped := failover.Order(in, now)
	for _, c := range append(usable, skipped...) {
		if c.Cleared {
			r.updateLedger(ctx, c.ID, func(st failover.ProfileState) failover.ProfileState { return st.ClearExpired(now) })
		}
	}
	return usable
}

// recordFailure writes a failed attempt to the shared ledger, with the hint
// its response gave (Retry-After, a rate-limit reset), which can lengthen
// the cooldown; the ledger itself leaves out what is not the profile's fault
// (SPEC §5.3).
func (r *Runtime) recordFailure(ctx context.Context, id string, m agent.Model, reason failover.Reason, perr *agent.ProviderError) {
	now := r.opts.Now()
	f := failover.Failure{At: now, Reason: reason, Model: m.ID, ProviderReached: reached(perr)}
	if perr != nil {
		f.Hint, _ = failover.RetryHint(perr.Status, perr.Header, now)
	}
	r.updateLedger(ctx, id, func(st failover.ProfileState) failover.ProfileState { return st.RecordFailure(f, r.opts.Cooldowns) })
}

// reached says whether the provider answered at all: a status, an error the
// provider itself sent, or a response whose headers arrived (a stream that
// stalled after them).
func reached(perr *agent.ProviderError) bool {
	return perr != nil && (perr.Status != 0 || perr.Type != "" || perr.Code != "" || perr.Header != nil)
}

// recordSuccess records a success in the background (SPEC §5.3), warning
// when the ledger is slow.
func (r *Runtime) recordSuccess(id string) {
	at := r.opts.Now()
	r.background.Add(1)
	go func() {
		defer r.background.Done()
		began := time.Now()
		r.updateLedger(r.writeCtx, id, func(st failover.ProfileState) failover.ProfileState { return st.RecordSuccess(at) })
		if took := time.Since(began); took > failover.SuccessRecordSlow {
			r.log.Warn("recording an auth-profile success was slow", "profile", id, "took", took)
		}
	}()
}

func (r *Runtime) updateLedger(ctx context.Context, id string, fn func(failover.ProfileState) failover.ProfileState) {
	if _, err := r.ledger.Update(ctx, id, fn); err != nil && !errors.Is(err, context.Canceled) {
		r.log.Warn("updating the auth-profile ledger failed", "profile", id, "error", err)
	}
}
