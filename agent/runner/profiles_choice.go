package runner

import (
	"fmt"
	"strings"
	"sync"

	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/persistence"
)

// The auth profiles a user chooses for a session (SPEC §5.3, S25, S26): a
// preferred profile is tried first while it is eligible (cooling down, it
// waits behind the others like any profile); a locked profile is the only
// one the session uses — rotation passes over every other, and when the
// locked one cools down the request waits for it or fails saying so. The
// choice is the session's and is saved with it (persistence.ProfileChoice):
// a resumed or switched-to session takes its saved choice again, and
// `steer inspect profiles`, another process, shows who chose what. A saved
// id this configuration no longer has is ignored, with a warning. --profile
// (Options.Profile) is the preferred profile of every session this process
// starts, and of a session opened here that saved no preferred one of its
// own; it is saved like a choice made with /profiles → p. /profiles → p and
// l change the current session's. Without a store the choice lasts as long
// as the process.

// profileChoice is a session's preferred and locked profiles ("" for none).
// saving makes a change and its write one step, so that two changes land
// in the database in the order they were made.
type profileChoice struct {
	saving            sync.Mutex
	mu                sync.Mutex
	preferred, locked string
}

func (c *profileChoice) get() (preferred, locked string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.preferred, c.locked
}

// saved is the choice as the store keeps it.
func (c *profileChoice) saved() persistence.ProfileChoice {
	preferred, locked := c.get()
	return persistence.ProfileChoice{Preferred: preferred, Locked: locked}
}

func (c *profileChoice) set(preferred, locked string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.preferred, c.locked = preferred, locked
}

// startChoice takes the preferred profile of Options.Profile, which must be
// configured.
func (r *Runtime) startChoice() error {
	if id := r.opts.Profile; id != "" && !r.hasProfile(id) {
		return r.unknownProfile(id)
	}
	r.resetChoice()
	return nil
}

// resetChoice is the choice of a session this process starts: --profile's
// preferred profile, no lock. It is saved with the session's row.
func (r *Runtime) resetChoice() {
	r.choice.saving.Lock()
	defer r.choice.saving.Unlock()
	r.choice.set(r.opts.Profile, "")
}

// PreferProfile makes id the session's preferred profile, tried first while
// it is eligible; "" prefers none. id must be configured. The choice holds
// in this process even when saving it fails (the error says so).
func (r *Runtime) PreferProfile(id string) error {
	if id != "" && !r.hasProfile(id) {
		return r.unknownProfile(id)
	}
	return r.changeChoice(func(c *persistence.ProfileChoice) { c.Preferred = id })
}

// LockProfile locks the session to profile id, the only one its requests
// use from the next attempt on; "" unlocks it. id must be configured. The
// choice holds in this process even when saving it fails.
func (r *Runtime) LockProfile(id string) error {
	if id != "" && !r.hasProfile(id) {
		return r.unknownProfile(id)
	}
	return r.changeChoice(func(c *persistence.ProfileChoice) { c.Locked = id })
}

// changeChoice applies edit to the session's choice and saves it, once the
// session has its row (ensureSession saves the choice with the row).
func (r *Runtime) changeChoice(edit func(*persistence.ProfileChoice)) error {
	r.choice.saving.Lock()
	defer r.choice.saving.Unlock()
	c := r.choice.saved()
	edit(&c)
	r.choice.set(c.Preferred, c.Locked)
	return r.saveChoice(c)
}

// saveChoice writes c for the current session, if it is saved already;
// choice.saving is held.
func (r *Runtime) saveChoice(c persistence.ProfileChoice) error {
	r.mu.Lock()
	id, created := r.session.id, r.session.created
	r.mu.Unlock()
	if r.store == nil || !created {
		return nil
	}
	if err := r.store.SetSessionProfiles(r.writes.ctx, id, c); err != nil {
		return fmt.Errorf("saving the auth profile choice: %w", err)
	}
	return nil
}

// adoptSavedChoice makes session id's saved choice the current one, once
// the session is current: an id no longer configured is ignored (logged),
// and a session that prefers none takes --profile's, saved like any
// choice. A failed save is logged: the choice holds here regardless.
func (r *Runtime) adoptSavedChoice(id string, saved persistence.ProfileChoice) {
	r.choice.saving.Lock()
	defer r.choice.saving.Unlock()
	preferred, locked := r.configuredChoice(id, "preferred", saved.Preferred), r.configuredChoice(id, "locked", saved.Locked)
	fromFlag := preferred == "" && r.opts.Profile != ""
	if fromFlag {
		preferred = r.opts.Profile
	}
	r.choice.set(preferred, locked)
	if !fromFlag {
		return
	}
	// The saved lock is kept as it was, known here or not.
	if err := r.saveChoice(persistence.ProfileChoice{Preferred: preferred, Locked: saved.Locked}); err != nil {
		r.log.Warn("the session's preferred auth profile was not saved", "session", id, "error", err)
	}
}

// configuredChoice is profile, the session's saved choice of kind
// ("preferred", "locked"), or "" when no provider configures it now.
func (r *Runtime) configuredChoice(sessionID, kind, profile string) string {
	if profile == "" || r.hasProfile(profile) {
		return profile
	}
	r.log.Warn("ignoring the session's saved choice of an auth profile that is not configured",
		"session", sessionID, "choice", kind, "profile", profile)
	return ""
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
