package runner

import (
	"fmt"
	"strings"
	"sync"

	"github.com/steer-tui/steer/failover"
)

// The auth profiles a user chooses for a session (SPEC §5.3, S25, S26): a
// preferred profile is tried first while it is eligible (cooling down, it
// waits behind the others like any profile); a locked profile is the only
// one the session uses — rotation passes over every other, and when the
// locked one cools down the request waits for it or fails saying so. The
// choice is per session and lives in memory with the session's runtime, for
// as long as the process keeps it: sessions have no settings place in the
// database, and which key to spend is a choice about this sitting, not part
// of the transcript. --profile (Options.Profile) sets the preferred one of
// the sessions a process starts; /profiles → p and l change a session's.

// profileChoice is a session's preferred and locked profiles ("" for none).
type profileChoice struct {
	mu                sync.Mutex
	preferred, locked string
}

func (c *profileChoice) get() (preferred, locked string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.preferred, c.locked
}

// startChoice takes the preferred profile of Options.Profile, which must be
// configured.
func (r *Runtime) startChoice() error {
	if id := r.opts.Profile; id != "" {
		if !r.hasProfile(id) {
			return r.unknownProfile(id)
		}
		r.choice.preferred = id
	}
	return nil
}

// PreferProfile makes id the session's preferred profile, tried first while
// it is eligible; "" prefers none. id must be configured.
func (r *Runtime) PreferProfile(id string) error {
	if id != "" && !r.hasProfile(id) {
		return r.unknownProfile(id)
	}
	r.choice.mu.Lock()
	defer r.choice.mu.Unlock()
	r.choice.preferred = id
	return nil
}

// LockProfile locks the session to profile id, the only one its requests
// use from the next attempt on; "" unlocks it. id must be configured.
func (r *Runtime) LockProfile(id string) error {
	if id != "" && !r.hasProfile(id) {
		return r.unknownProfile(id)
	}
	r.choice.mu.Lock()
	defer r.choice.mu.Unlock()
	r.choice.locked = id
	return nil
}

// ProfileChoice returns the session's preferred and locked profiles ("" for
// none).
func (r *Runtime) ProfileChoice() (preferred, locked string) { return r.choice.get() }

// chosen fills in the session's choice for ordering.
func (r *Runtime) chosen(in *failover.OrderInput) {
	in.Preferred, in.Locked = r.choice.get()
}

// unknownProfile is the error for an id no provider configures, listing the
// ones that are.
func (r *Runtime) unknownProfile(id string) error {
	var known []string
	for _, p := range r.opts.Providers {
		for _, pr := range p.profiles() {
			known = append(known, pr.ID)
		}
	}
	return &UnknownProfileError{ID: id, Known: known}
}

// lockNote adds to the error of a request that found no profile to use
// that the session is locked to one: rotation did not look further because
// the user said so, and how to undo it. "" when the session is not locked.
func (r *Runtime) lockNote(text string) string {
	_, locked := r.choice.get()
	if locked == "" {
		return text
	}
	note := fmt.Sprintf("the session is locked to auth profile %s (/profiles → l unlocks it)", locked)
	if text == "" {
		return note
	}
	return text + " — " + note
}

// knownProfiles words the configured profiles for an error: "a, b".
func knownProfiles(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}
