package headless

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/failover"
	"github.com/steer-tui/steer/persistence"
)

// What `steer inspect` can show; the others come with their parts (the
// context guard's engines, the lanes, run records).
const (
	InspectProfiles = "profiles"
)

// ProfileRow is one configured auth profile with its ledger entry.
type ProfileRow struct {
	ID, Provider string
	State        failover.ProfileState
}

// ShowProfiles prints every profile's standing at now: state, until when,
// why, the model a cooldown is scoped to, its error count and when it was
// last used and last succeeded. It needs no key: the configuration names the
// profiles and the shared ledger holds their state.
func ShowProfiles(rows []ProfileRow, now time.Time, asJSON bool, stdout, stderr io.Writer) int {
	if asJSON {
		out := make([]runner.ProfileView, len(rows))
		for i, r := range rows {
			out[i] = runner.ViewProfile(r.ID, r.Provider, r.State, now)
		}
		return writeJSON(stdout, stderr, out)
	}
	if len(rows) == 0 {
		fmt.Fprintln(stdout, "No auth profiles are configured.")
		return ExitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROFILE\tPROVIDER\tSTATE\tFOR\tREASON\tSET BY\tMODEL\tERRORS\tLAST USED\tLAST SUCCESS")
	for _, r := range rows {
		v := runner.ViewProfile(r.ID, r.Provider, r.State, now)
		left, reason, source := "-", "-", "-"
		if v.Until != nil && v.Reason != nil {
			left, reason = v.Until.Sub(now).Round(time.Second).String(), *v.Reason
		}
		if v.UntilSource != nil {
			source = *v.UntilSource
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", r.ID, r.Provider, v.State, left, reason, source,
			orDash(v.Model), v.ErrorCount, ago(now, v.LastUsed), ago(now, v.LastSuccess))
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
}

// Inspect is `steer inspect profiles`: the configured profiles with the
// shared ledger's state for each, read from the state directory's database.
func Inspect(ctx context.Context, o InspectOptions, stdout, stderr io.Writer) int {
	store, err := persistence.Open(o.StateDir, persistence.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return ExitUsage
	}
	defer store.Close()
	if o.Clear != "" {
		if code := clearProfile(ctx, store, o, stdout, stderr); code != ExitOK {
			return code
		}
	}
	ledger := store.Ledger()
	rows := make([]ProfileRow, len(o.Profiles))
	for i, p := range o.Profiles {
		st, err := ledger.Load(ctx, p.ID)
		if err != nil {
			fmt.Fprintf(stderr, "steer: reading the ledger: %v\n", err)
			return ExitFailed
		}
		rows[i] = ProfileRow{ID: p.ID, Provider: p.Provider, State: st}
	}
	return ShowProfiles(rows, o.Now, o.JSON, stdout, stderr)
}

// clearProfile is --clear ID: the cooldown and disabled windows of a
// configured profile end and its error counters start over, as the
// inspector's clear does; its lifetime statistics stay.
func clearProfile(ctx context.Context, store *persistence.Store, o InspectOptions, stdout, stderr io.Writer) int {
	known := false
	for _, p := range o.Profiles {
		known = known || p.ID == o.Clear
	}
	if !known {
		fmt.Fprintf(stderr, "steer: %v\n", &runner.UnknownProfileError{ID: o.Clear})
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
