package runner

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"

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
// It calls only known (to check an id), save (which writes the current
// session's choice once the session has its row; Runtime.saveChoice) and
// its log. saving makes a change and its write one step, so that two
// changes land in the database in the order they were made.
type profileChoice struct {
	flag  string // --profile (Options.Profile): every new session's preference
	known *catalog
	save  func(context.Context, persistence.ProfileChoice) error
	log   *slog.Logger

	saving            sync.Mutex
	mu                sync.Mutex
	preferred, locked string
}

// newProfileChoice is the choice of the first session: --profile's
// preferred profile, which must be configured.
func newProfileChoice(flag string, known *catalog, save func(context.Context, persistence.ProfileChoice) error, log *slog.Logger) (*profileChoice, error) {
	if err := known.checkProfile(flag); err != nil {
		return nil, err
	}
	c := &profileChoice{flag: flag, known: known, save: save, log: log}
	c.reset()
	return c, nil
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

// reset is the choice of a session this process starts: --profile's
// preferred profile, no lock. It is saved with the session's row.
func (c *profileChoice) reset() {
	c.saving.Lock()
	defer c.saving.Unlock()
	c.set(c.flag, "")
}

// prefer makes id the preferred profile, tried first while it is eligible;
// "" prefers none. id must be configured. The choice holds in this process
// even when saving it fails (the error says so).
func (c *profileChoice) prefer(ctx context.Context, id string) error {
	if err := c.known.checkProfile(id); err != nil {
		return err
	}
	return c.change(ctx, func(pc *persistence.ProfileChoice) { pc.Preferred = id })
}

// lock locks the session to profile id, the only one its requests use from
// the next attempt on; "" unlocks it. id must be configured.
func (c *profileChoice) lock(ctx context.Context, id string) error {
	if err := c.known.checkProfile(id); err != nil {
		return err
	}
	return c.change(ctx, func(pc *persistence.ProfileChoice) { pc.Locked = id })
}

// change applies edit to the choice and saves it within ctx.
func (c *profileChoice) change(ctx context.Context, edit func(*persistence.ProfileChoice)) error {
	c.saving.Lock()
	defer c.saving.Unlock()
	pc := c.saved()
	edit(&pc)
	c.set(pc.Preferred, pc.Locked)
	return c.save(ctx, pc)
}

// adoptSaved makes session id's saved choice the current one, once the
// session is current (saved within ctx): an id no longer configured is ignored (logged), and a
// session that prefers none takes --profile's, saved like any choice. A
// failed save is logged: the choice holds here regardless.
func (c *profileChoice) adoptSaved(ctx context.Context, id string, saved persistence.ProfileChoice) {
	c.saving.Lock()
	defer c.saving.Unlock()
	preferred, locked := c.configured(id, "preferred", saved.Preferred), c.configured(id, "locked", saved.Locked)
	fromFlag := preferred == "" && c.flag != ""
	if fromFlag {
		preferred = c.flag
	}
	c.set(preferred, locked)
	if !fromFlag {
		return
	}
	// The saved lock is kept as it was, known here or not.
	if err := c.save(ctx, persistence.ProfileChoice{Preferred: preferred, Locked: saved.Locked}); err != nil {
		c.log.Warn("the session's preferred auth profile was not saved", "session", id, "error", err)
	}
}

// configured is profile, the session's saved choice of kind ("preferred",
// "locked"), or "" when no provider configures it now.
func (c *profileChoice) configured(sessionID, kind, profile string) string {
	if profile == "" || c.known.hasProfile(profile) {
		return profile
	}
	c.log.Warn("ignoring the session's saved choice of an auth profile that is not configured",
		"session", sessionID, "choice", kind, "profile", profile)
	return ""
}

// lockNote adds to the error of a request that found no profile to use
// that the session is locked to one: rotation did not look further because
// the user said so, and how to undo it. text as it is when the session is
// not locked.
func (c *profileChoice) lockNote(text string) string {
	_, locked := c.get()
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
