package headless

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/failover"
)

// What `steer inspect` can show; the others come with their parts (the
// context guard's engines, the lanes, run records).
const (
	InspectProfiles = "profiles"
)

// shortSession is how many characters of a session id the table shows
// ("s_ab12…"); --json has the whole ids.
const shortSession = 6

// ProfileRow is one configured auth profile with its ledger entry, whether
// the command line prefers it (--profile) and the saved sessions that
// prefer it or are locked to it.
type ProfileRow struct {
	ID, Provider          string
	State                 failover.ProfileState
	Preferred             bool     // --profile names it
	PreferredBy, LockedBy []string // session ids
}

// view is the row as the inspectors show it: preferred or locked when
// --profile or any session chose it so.
func (r ProfileRow) view(now time.Time) runner.ProfileView {
	v := runner.ViewProfile(r.ID, r.Provider, r.State, now)
	v.Preferred, v.Locked = r.Preferred || len(r.PreferredBy) > 0, len(r.LockedBy) > 0
	v.PreferredBy = append(v.PreferredBy, r.PreferredBy...)
	v.LockedBy = append(v.LockedBy, r.LockedBy...)
	return v
}

// choice words who chose a profile: "locked (s_ab12…)", "preferred
// (--profile, s_cd34…)", both with "; " between, or "-". A preference of
// --profile's alone is "preferred".
func choice(r ProfileRow) string {
	var parts []string
	if len(r.LockedBy) > 0 {
		parts = append(parts, "locked ("+shortSessions(r.LockedBy)+")")
	}
	var who []string
	if r.Preferred {
		who = append(who, "--profile")
	}
	who = append(who, r.PreferredBy...)
	switch {
	case len(r.PreferredBy) > 0:
		parts = append(parts, "preferred ("+shortSessions(who)+")")
	case r.Preferred:
		parts = append(parts, "preferred")
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "; ")
}

// shortSessions words session ids by their first characters.
func shortSessions(ids []string) string {
	short := make([]string, len(ids))
	for i, id := range ids {
		short[i] = id
		if len(id) > shortSession && strings.HasPrefix(id, "s_") {
			short[i] = id[:shortSession] + "…"
		}
	}
	return strings.Join(short, ", ")
}

// ShowProfiles prints every profile's standing at now: state, until when,
// why, the model a cooldown is scoped to, its error count and when it was
// last used and last succeeded, and which sessions prefer it or are locked
// to it. It needs no key: the configuration names the profiles and the
// shared ledger holds their state.
func ShowProfiles(rows []ProfileRow, now time.Time, asJSON bool, stdout, stderr io.Writer) int {
	if asJSON {
		out := make([]runner.ProfileView, len(rows))
		for i, r := range rows {
			out[i] = r.view(now)
		}
		return writeJSON(stdout, stderr, out)
	}
	if len(rows) == 0 {
		fmt.Fprintln(stdout, "No auth profiles are configured.")
		return ExitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROFILE\tPROVIDER\tSTATE\tFOR\tREASON\tSET BY\tMODEL\tERRORS\tLAST USED\tLAST SUCCESS\tCHOICE")
	for _, r := range rows {
		v := r.view(now)
		left, reason, source := "-", "-", "-"
		if v.Until != nil && v.Reason != nil {
			left, reason = v.Until.Sub(now).Round(time.Second).String(), *v.Reason
		}
		if v.UntilSource != nil {
			source = *v.UntilSource
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", r.ID, r.Provider, v.State, left, reason, source,
			orDash(v.Model), v.ErrorCount, ago(now, v.LastUsed), ago(now, v.LastSuccess), choice(r))
	}
	tw.Flush()
	return ExitOK
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// ago words how long before now t was, or "never".
func ago(now time.Time, t *time.Time) string {
	if t == nil {
		return "never"
	}
	return now.Sub(*t).Round(time.Second).String() + " ago"
}

// ProfileRef names a configured auth profile and its provider.
type ProfileRef struct{ ID, Provider string }

// InspectOptions are the arguments of `steer inspect profiles`.
type InspectOptions struct {
	StateDir string // config.StateDir
	// Profiles are the configured ones, in the configuration's order.
	Profiles []ProfileRef
	JSON     bool
	Now      time.Time
	// Clear names a configured profile whose cooldown and disabled windows
	// to end first (for every steer process: they share the ledger).
	Clear string
	// Preferred is --profile: the profile the command line prefers, marked
	// as such; it must be configured. The sessions' own choices are read
	// from the database.
	Preferred string
}

// Inspect is `steer inspect profiles`: the configured profiles with the
// shared ledger's state for each and the saved sessions' choices of them,
// read from the state directory's database.
func Inspect(ctx context.Context, o InspectOptions, stdout, stderr io.Writer) int {
	store, err := runner.OpenStateView(o.StateDir, runner.StateViewOptions{})
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return ExitUsage
	}
	defer store.Close()
	if o.Preferred != "" && !configured(o.Profiles, o.Preferred) {
		fmt.Fprintf(stderr, "steer: --profile: %v\n", unknownProfile(o.Profiles, o.Preferred))
		return ExitUsage
	}
	if o.Clear != "" {
		if code := clearProfile(ctx, store, o, stdout, stderr); code != ExitOK {
			return code
		}
	}
	choosers, err := store.ProfileChoosers(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return ExitFailed
	}
	rows := make([]ProfileRow, len(o.Profiles))
	for i, p := range o.Profiles {
		st, err := store.ProfileState(ctx, p.ID)
		if err != nil {
			fmt.Fprintf(stderr, "steer: reading the ledger: %v\n", err)
			return ExitFailed
		}
		rows[i] = ProfileRow{ID: p.ID, Provider: p.Provider, State: st, Preferred: p.ID == o.Preferred,
			PreferredBy: choosers.PreferredBy[p.ID], LockedBy: choosers.LockedBy[p.ID]}
	}
	return ShowProfiles(rows, o.Now, o.JSON, stdout, stderr)
}

// clearProfile is --clear ID: the cooldown and disabled windows of a
// configured profile end and its error counters start over, as the
// inspector's clear does; its lifetime statistics stay.
func clearProfile(ctx context.Context, store *runner.StateView, o InspectOptions, stdout, stderr io.Writer) int {
	if !configured(o.Profiles, o.Clear) {
		fmt.Fprintf(stderr, "steer: %v\n", unknownProfile(o.Profiles, o.Clear))
		return ExitUsage
	}
	if err := store.ClearProfile(ctx, o.Clear); err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return ExitFailed
	}
	if !o.JSON {
		fmt.Fprintf(stdout, "Cleared the cooldown of %s.\n", o.Clear)
	}
	return ExitOK
}

func configured(profiles []ProfileRef, id string) bool {
	for _, p := range profiles {
		if p.ID == id {
			return true
		}
	}
	return false
}

func unknownProfile(profiles []ProfileRef, id string) error {
	known := []string{}
	for _, p := range profiles {
		known = append(known, p.ID)
	}
	return &runner.UnknownProfileError{ID: id, Known: known}
}
