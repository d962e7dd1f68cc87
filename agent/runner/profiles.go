package runner

import (
	"context"
	"errors"
	"sync"
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
// ledger (SPEC §5.3) and the session's choice (profiles_choice.go), writing
// back cooldowns that have ended and announcing them (cooldown_cleared,
// source "expired").
func (r *Runtime) orderProfiles(ctx context.Context, prov Provider, m agent.Model) []failover.Candidate {
	now := r.opts.Now()
	in := failover.OrderInput{
		Profiles: map[string]failover.Profile{}, States: map[string]failover.ProfileState{},
		Want: failover.Want{Provider: prov.Name, Model: m.ID},
	}
	r.chosen(&in)
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
		if !c.Cleared {
			continue
		}
		model := in.States[c.ID].CooldownModel
		if _, ok := r.updateLedger(ctx, c.ID, func(st failover.ProfileState) failover.ProfileState { return st.ClearExpired(now) }); ok {
			r.announceCleared(CooldownCleared{Profile: c.ID, Model: model, Source: ClearedExpired})
		}
	}
	return usable
}

// recordFailure writes a failed attempt to the shared ledger, with the hint
// its response gave (Retry-After, a rate-limit reset), which can lengthen
// the cooldown; the ledger itself leaves out what is not the profile's fault
// (SPEC §5.3). A window the failure opens, lengthens or widens is announced
// on out, the request's stream (cooldownevents.go).
func (r *Runtime) recordFailure(ctx context.Context, out *agent.AssistantStream, id string, m agent.Model, reason failover.Reason, perr *agent.ProviderError) {
	now := r.opts.Now()
	f := failover.Failure{At: now, Reason: reason, Model: m.ID, ProviderReached: reached(perr)}
	if perr != nil {
		f.Hint, _ = failover.RetryHint(perr.Status, perr.Header, now)
	}
	var before failover.ProfileState // what the applied update started from
	after, ok := r.updateLedger(ctx, id, func(st failover.ProfileState) failover.ProfileState {
		before = st
		return st.RecordFailure(f, r.opts.Cooldowns)
	})
	if info, changed := windowChange(id, before, after, now); ok && changed {
		announceCooldown(ctx, out, info)
	}
}

// reached says whether the provider answered at all: a status, an error the
// provider itself sent, or a response whose headers arrived (a stream that
// stalled after them).
func reached(perr *agent.ProviderError) bool {
	return perr != nil && (perr.Status != 0 || perr.Type != "" || perr.Code != "" || perr.Header != nil)
}

// successes are the answers of the run under way, each recorded as its
// profile's success once the run ends (SPEC §5.3, §7.4: success is recorded
// after the run, in the background). Every answered request counts, at the
// time it answered, so that a failure later in the run keeps its counters
// (RecordSuccess leaves a newer failure's counters alone). A run is under
// way while it holds its lanes (lanes.go: from before its first request
// until agent_end reaches the subscribers, settleSuccesses after
// laneProgress); a success noted outside one (a manual compaction's
// summary) is recorded at once, its request being all there is to settle.
type successes struct {
	mu    sync.Mutex
	noted []success
}

type success struct {
	id string
	at time.Time
}

// recordSuccess notes that profile id answered a request, for the run's end
// to record. The check for a run and the note are one step under mu, which
// the run's end takes after leaving the lanes: no note is left behind.
func (r *Runtime) recordSuccess(id string) {
	at := r.opts.Now()
	r.answered.mu.Lock()
	r.lane.mu.Lock()
	running := r.lane.task != nil
	r.lane.mu.Unlock()
	if running {
		r.answered.noted = append(r.answered.noted, success{id, at})
	}
	r.answered.mu.Unlock()
	if !running {
		r.writeSuccess(id, at)
	}
}

// settleSuccesses records, when a run ends, the successes noted during it.
func (r *Runtime) settleSuccesses(ev agent.Event) {
	if _, ok := ev.(agent.AgentEnd); !ok {
		return
	}
	r.answered.mu.Lock()
	noted := r.answered.noted
	r.answered.noted = nil
	r.answered.mu.Unlock()
	for _, s := range noted {
		r.writeSuccess(s.id, s.at)
	}
}

// writeSuccess records a success at at in the background, warning when the
// ledger is slow (failover.SuccessRecordSlow). (seed)
func (r *Runtime) writeSuccess(id string, at time.Time) {
	r.background.Add(1)
	go func() {
		defer r.background.Done()
		began := time.Now()
		r.updateLedger(r.writes.ctx, id, func(st failover.ProfileState) failover.ProfileState { return st.RecordSuccess(at) })
		if took := time.Since(began); took > failover.SuccessRecordSlow {
			r.log.Warn("recording an auth-profile success was slow", "profile", id, "took", took)
		}
	}()
}

// updateLedger applies fn to profile id's entry and returns what was
// stored; ok is false when the ledger failed (logged: a lost record must not
// fail the run).
func (r *Runtime) updateLedger(ctx context.Context, id string, fn func(failover.ProfileState) failover.ProfileState) (failover.ProfileState, bool) {
	st, err := r.ledger.Update(ctx, id, fn)
	if err != nil && !errors.Is(err, context.Canceled) {
		r.log.Warn("updating the auth-profile ledger failed", "profile", id, "error", err)
	}
	return st, err == nil
}
