package runner

import (
	"context"
	"time"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/persistence"
)

// ProfileView is one auth profile as the inspectors show it (`steer inspect
// profiles --json`, rpc inspect): state is "available", "cooldown" or
// "disabled"; until, untilSource and reason are null while available.
// untilSource says where the window's length came from: "schedule" (SPEC
// §5.3), or the header of the provider's longer hint ("retry-after",
// "x-ratelimit-reset-tokens", "anthropic-ratelimit-requests-reset" …).
type ProfileView struct {
	ID          string     `json:"id"`
	Provider    string     `json:"provider"`
	State       string     `json:"state"`
	Until       *time.Time `json:"until"`
	UntilSource *string    `json:"untilSource"`
	Reason      *string    `json:"reason"`
	Model       string     `json:"model"`
	ErrorCount  int        `json:"errorCount"`
	Failures    int        `json:"failures"`
	Successes   int        `json:"successes"`
	LastUsed    *time.Time `json:"lastUsed"`
	LastSuccess *time.Time `json:"lastSuccess"`
	// Scenario names the rehearsal whose own ledger the row comes from
	// (--scenario); absent for the shared ledger.
	Scenario string `json:"scenario,omitempty"`
	// Preferred and Locked are the session's choice (profiles_choice.go):
	// the profile tried first while eligible, the only one used.
	// PreferredBy and LockedBy name the sessions that chose it so (never
	// null): the current one here, every saved one in `steer inspect
	// profiles`.
	Preferred   bool     `json:"preferred"`
	Locked      bool     `json:"locked"`
	PreferredBy []string `json:"preferredBy"`
	LockedBy    []string `json:"lockedBy"`
}

// ViewProfile is how profile id of provider stands at now by its ledger
// entry.
func ViewProfile(id, provider string, st failover.ProfileState, now time.Time) ProfileView {
	st = st.ClearExpired(now) // as the next run will see it: an ended window counts nothing
	status := st.Status(now)
	v := ProfileView{ID: id, Provider: provider, State: status.State, Model: status.Model,
		ErrorCount: st.ErrorCount, Failures: st.Failures, Successes: st.Successes,
		Until: timeOrNil(status.Until), LastUsed: timeOrNil(st.LastUsed()), LastSuccess: timeOrNil(st.LastSuccessAt),
		PreferredBy: []string{}, LockedBy: []string{}}
	if status.State != failover.StateAvailable {
		reason, source := status.Reason.String(), st.UntilSource(now)
		v.Reason, v.UntilSource = &reason, &source
	}
	return v
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
}

// inspectors are the runtime's read-mostly views for the inspectors
// (/profiles, /engines, /runs, the context meter) and the two clears they
// offer. Each reads only what its view needs: the ledger and the profile
// choice, the context keeper, the store, the agent's state.
type inspectors struct {
	providers    []Provider
	ledger       failover.Ledger
	rehearsal    string
	now          func() time.Time
	sessionID    func() string
	choice       *profileChoice
	catalog      *catalog
	profiles     *profileLedger
	keeper       *contextKeeper
	store        *persistence.Store
	agent        *agent.Agent
	systemPrompt string
	memory       *memory
	library      *library
}

// Profiles views every auth profile of the configured providers, in their
// order, from the shared ledger (a rehearsal's own, labelled), with the
// session's choice.
func (i *inspectors) Profiles(ctx context.Context) ([]ProfileView, error) {
	now := i.now()
	preferred, locked := i.choice.get()
	session := i.sessionID()
	var out []ProfileView
	for _, p := range i.providers {
		for _, pr := range p.profiles() {
			st, err := i.ledger.Load(ctx, pr.ID)
			if err != nil {
				return nil, err
			}
			v := ViewProfile(pr.ID, p.Name, st, now)
			v.Scenario = i.rehearsal
			v.Preferred, v.Locked = pr.ID == preferred, pr.ID == locked
			v.PreferredBy, v.LockedBy = chosenBy(v.Preferred, session), chosenBy(v.Locked, session)
			out = append(out, v)
		}
	}
	return out, nil
}

// chosenBy is the current session, as the sessions that chose a profile so,
// when it did.
func chosenBy(chosen bool, session string) []string {
	if !chosen {
		return []string{}
	}
	return []string{session}
}
