package runner

import (
	"context"
	"errors"
	"log/slog"
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

// profileLedger is the runtime's use of the shared auth-profile ledger
// (SPEC §5.3): it orders a model's profiles by the ledger and the session's
// choice, records failures as they happen and successes once the run ends
// (in the background), and clears a profile's windows. It may call the
// ledger, the choice, clearStored, and the funcs below; a window it opens
// goes out on the request's stream, one it finds ended or clears goes to
// cleared.
type profileLedger struct {
	ledger    failover.Ledger
	choice    *profileChoice
	cooldowns failover.Cooldowns
	now       func() time.Time
	log       *slog.Logger
	// cleared announces a window that ended (a runtime notice).
	cleared func(CooldownCleared)
	// running says whether a run holds its lanes now; writes bounds the
	// background writes (Runtime.writeCtx).
	running func() bool
	writes  context.Context
	// clearStored clears a profile for every steer process (the store's
	// ClearProfile); nil clears it in ledger only (no store, a rehearsal).
	clearStored func(ctx context.Context, id string) error

	answered successes // successes to record when the run ends
	// background counts the ledger writes that run after a request.
	background inflight
}

// order orders the profiles that may serve model m by the shared ledger
// (SPEC §5.3) and the session's choice (profiles_choice.go), writing back
// cooldowns that have ended and announcing them (cooldown_cleared, source
// "expired").
func (l *profileLedger) order(ctx context.Context, prov Provider, m agent.Model) []failover.Candidate {
	now := l.now()
	in := failover.OrderInput{
		Profiles: map[string]failover.Profile{}, States: map[string]failover.ProfileState{},
		Want: failover.Want{Provider: prov.Name, Model: m.ID},
	}
	in.Preferred, in.Locked = l.choice.get()
	for _, p := range prov.profiles() {
		in.Order = append(in.Order, p.ID)
		in.Profiles[p.ID] = failover.Profile{ID: p.ID, Provider: prov.Name}
		st, err := l.ledger.Load(ctx, p.ID)
		if err != nil {
			l.log.Warn("reading the auth-profile ledger failed", "profile", p.ID, "error", err)
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
		if _, ok := l.update(ctx, c.ID, func(st failover.ProfileState) failover.ProfileState { return st.ClearExpired(now) }); ok {
			l.cleared(CooldownCleared{Profile: c.ID, Model: model, Source: ClearedExpired})
		}
	}
	return usable
}

// recordFailure writes a failed attempt to the shared ledger, with the hint
// its response gave (Retry-After, a rate-limit reset), which can lengthen
// the cooldown; the ledger itself leaves out what is not the profile's fault
// (SPEC §5.3). A window the failure opens, lengthens or widens is announced
// on out, the request's stream (cooldownevents.go).
func (l *profileLedger) recordFailure(ctx context.Context, out *agent.AssistantStream, id string, m agent.Model, reason failover.Reason, perr *agent.ProviderError) {
	now := l.now()
	f := failover.Failure{At: now, Reason: reason, Model: m.ID, ProviderReached: reached(perr)}
	if perr != nil {
		f.Hint, _ = failover.RetryHint(perr.Status, perr.Header, now)
	}
	var before failover.ProfileState // what the applied update started from
	after, ok := l.update(ctx, id, func(st failover.ProfileState) failover.ProfileState {
		before = st
		return st.RecordFailure(f, l.cooldowns)
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
// until agent_end reaches the subscribers, settle after laneProgress); a
// success noted outside one (a manual compaction's summary) is recorded at
// once, its request being all there is to settle.
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
func (l *profileLedger) recordSuccess(id string) {
	at := l.now()
	l.answered.mu.Lock()
	running := l.running()
	if running {
		l.answered.noted = append(l.answered.noted, success{id, at})
	}
	l.answered.mu.Unlock()
	if !running {
		l.writeSuccess(id, at)
	}
}

// settle records, when a run ends, the successes noted during it (a
// subscriber).
func (l *profileLedger) settle(ev agent.Event) {
	if _, ok := ev.(agent.AgentEnd); !ok {
		return
	}
	l.answered.mu.Lock()
	noted := l.answered.noted
	l.answered.noted = nil
	l.answered.mu.Unlock()
	for _, s := range noted {
		l.writeSuccess(s.id, s.at)
	}
}

// writeSuccess records a success at at in the background, warning when the
// ledger is slow (failover.SuccessRecordSlow). (seed)
func (l *profileLedger) writeSuccess(id string, at time.Time) {
	l.background.add()
	go func() {
		defer l.background.done()
		began := time.Now()
		l.update(l.writes, id, func(st failover.ProfileState) failover.ProfileState { return st.RecordSuccess(at) })
		if took := time.Since(began); took > failover.SuccessRecordSlow {
			l.log.Warn("recording an auth-profile success was slow", "profile", id, "took", took)
		}
	}()
}

// wait waits for the background writes.
func (l *profileLedger) wait() { l.background.wait(context.Background()) }

// update applies fn to profile id's entry and returns what was stored; ok
// is false when the ledger failed (logged: a lost record must not fail the
// run).
func (l *profileLedger) update(ctx context.Context, id string, fn func(failover.ProfileState) failover.ProfileState) (failover.ProfileState, bool) {
	st, err := l.ledger.Update(ctx, id, fn)
	if err != nil && !errors.Is(err, context.Canceled) {
		l.log.Warn("updating the auth-profile ledger failed", "profile", id, "error", err)
	}
	return st, err == nil
}
