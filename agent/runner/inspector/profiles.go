package inspector

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

// ProfilesView is the profiles inspector's view: every configured auth
// profile as it stands, with the session's (or, saved, the sessions')
// choice of it.
type ProfilesView struct {
	Profiles []runner.ProfileView
	// CommandLine is the profile `steer inspect --profile` prefers; it is
	// named among those who prefer it.
	CommandLine string
}

// Profiles is the auth profiles inspector: /profiles, rpc `inspect
// {what:"profiles"}` ({profiles: [...]}), `steer inspect profiles`.
var Profiles = New(Def[ProfilesView]{
	Name:    "profiles",
	Summary: "auth profiles and their cooldowns",
	Usage:   "auth profiles and their cooldowns (--clear ID ends one)",
	Args:    "[--clear ID]",
	Help: `every configured auth profile as the shared failure ledger has it:
available, in cooldown or disabled, until when and why, the model a cooldown
is scoped to, its error count, when it was last used and last succeeded. No
key is needed. --json prints [{id, provider, state, until, reason, model,
errorCount, failures, successes, lastUsed, lastSuccess, preferred, locked}].
--clear ID ends ID's cooldown and disabled windows for every steer process (its
counts of failures and successes stay). The preferred and locked profiles are a
session's choice, held by the process that runs it (rpc inspect and /profiles
show them); here --profile ID marks the one the command line would prefer.`,
	Read: func(ctx context.Context, src Source, _ Query) (ProfilesView, error) {
		v, err := src.Profiles(ctx)
		return ProfilesView{Profiles: v}, err
	},
	ReadSaved: readSavedProfiles,
	JSON:      func(v ProfilesView) any { return v.Profiles },
	Answer: func(v ProfilesView) any {
		return struct {
			Profiles []runner.ProfileView `json:"profiles"`
		}{v.Profiles}
	},
	Print: printProfiles,
	Table: func(v ProfilesView, f Frame) Table { return profilesTable(v.Profiles, f.Now) },
	Clear: &Clear{
		What: "cooldown",
		Consequence: "The profile is used again at once, by every steer process on this state directory.\n" +
			"Its error count starts over; its history stays.",
		Live: func(ctx context.Context, src Source, id string) error { return src.ClearProfile(ctx, id) },
		Saved: func(ctx context.Context, s Saved, id string) error {
			if err := checkPreferred(s); err != nil {
				return err
			}
			if !configured(s.Profiles, id) {
				return &UsageError{Err: unknownProfile(s.Profiles, id)}
			}
			return s.State.ClearProfile(ctx, id)
		},
	},
})

// readSavedProfiles is the configured profiles with the shared ledger's
// state for each and the saved sessions' choices of them. It needs no key:
// the configuration names the profiles and the ledger holds their state.
func readSavedProfiles(ctx context.Context, s Saved) (ProfilesView, error) {
	if err := checkPreferred(s); err != nil {
		return ProfilesView{}, err
	}
	choosers, err := s.State.ProfileChoosers(ctx)
	if err != nil {
		return ProfilesView{}, err
	}
	v := ProfilesView{Profiles: make([]runner.ProfileView, len(s.Profiles)), CommandLine: s.Preferred}
	for i, p := range s.Profiles {
		st, err := s.State.ProfileState(ctx, p.ID)
		if err != nil {
			return ProfilesView{}, fmt.Errorf("reading the ledger: %w", err)
		}
		v.Profiles[i] = savedProfile(p, st, p.ID == s.Preferred, choosers.PreferredBy[p.ID], choosers.LockedBy[p.ID], s.Now)
	}
	return v, nil
}

// savedProfile is profile p as `steer inspect` shows it at now: preferred
// or locked when --profile (commandLine) or any saved session chose it so.
func savedProfile(p ProfileRef, st failover.ProfileState, commandLine bool, preferredBy, lockedBy []string, now time.Time) runner.ProfileView {
	v := runner.ViewProfile(p.ID, p.Provider, st, now)
	v.Preferred, v.Locked = commandLine || len(preferredBy) > 0, len(lockedBy) > 0
	v.PreferredBy = append(v.PreferredBy, preferredBy...)
	v.LockedBy = append(v.LockedBy, lockedBy...)
	return v
}

// checkPreferred refuses a --profile that names no configured profile.
func checkPreferred(s Saved) error {
	if s.Preferred != "" && !configured(s.Profiles, s.Preferred) {
		return &UsageError{Err: fmt.Errorf("--profile: %w", unknownProfile(s.Profiles, s.Preferred))}
	}
	return nil
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

// printProfiles prints every profile's standing at now: state, until when,
// why, the model a cooldown is scoped to, its error count, when it was last
// used and last succeeded, and which sessions prefer it or are locked to
// it.
func printProfiles(w io.Writer, v ProfilesView, now time.Time) {
	if len(v.Profiles) == 0 {
		fmt.Fprintln(w, "No auth profiles are configured.")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROFILE\tPROVIDER\tSTATE\tFOR\tREASON\tSET BY\tMODEL\tERRORS\tLAST USED\tLAST SUCCESS\tCHOICE")
	for _, p := range v.Profiles {
		left, reason, source := "-", "-", "-"
		if p.Until != nil && p.Reason != nil {
			left, reason = p.Until.Sub(now).Round(time.Second).String(), *p.Reason
		}
		if p.UntilSource != nil {
			source = *p.UntilSource
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", p.ID, p.Provider, p.State, left, reason, source,
			orDash(p.Model), p.ErrorCount, sinceThen(now, p.LastUsed), sinceThen(now, p.LastSuccess), choice(p, p.ID == v.CommandLine))
	}
	tw.Flush()
}

// shortSession is how many characters of a session id the printed table
// shows ("s_ab12…"); --json has the whole ids.
const shortSession = 6

// choice words who chose a profile: "locked (s_ab12…)", "preferred
// (--profile, s_cd34…)", both with "; " between, or "-". A preference of
// --profile's (commandLine) alone is "preferred".
func choice(p runner.ProfileView, commandLine bool) string {
	var parts []string
	if len(p.LockedBy) > 0 {
		parts = append(parts, "locked ("+shortSessions(p.LockedBy)+")")
	}
	var who []string
	if commandLine {
		who = append(who, "--profile")
	}
	who = append(who, p.PreferredBy...)
	switch {
	case len(p.PreferredBy) > 0:
		parts = append(parts, "preferred ("+shortSessions(who)+")")
	case commandLine:
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

// sinceThen words how long before now t was, to the second, or "never"
// (the printed tables'; the TUI's ago rounds coarser).
func sinceThen(now time.Time, t *time.Time) string {
	if t == nil {
		return "never"
	}
	return now.Sub(*t).Round(time.Second).String() + " ago"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// profilesTable is the auth profiles as they stand at now: each one's state
// (available, or cooling down or disabled until a time, with the time
// left), the reason and model of its window, its error count, and when it
// was last used and last succeeded. A profile in a window can be cleared;
// the session's preferred and locked profiles are marked (★ preferred,
// 🔒 locked), and p and l change them.
func profilesTable(views []runner.ProfileView, now time.Time) Table {
	t := Table{
		Title: "Auth profiles",
		Columns: []Column{{Title: "PROFILE", Max: 32}, {Title: "PROVIDER", Max: 16, Drop: 2}, {Title: "STATE", Max: 28},
			{Title: "LEFT"}, {Title: "REASON", Max: 16}, {Title: "MODEL", Max: 24, Drop: 1}, {Title: "ERRORS", Drop: 3},
			{Title: "LAST USED", Drop: 4}, {Title: "LAST OK", Drop: 5}},
		Empty: "no auth profiles are configured",
	}
	if len(views) > 0 && views[0].Scenario != "" {
		// A rehearsal's own ledger (--scenario), not the shared one.
		t.Title += " · rehearsal ledger, scenario: " + views[0].Scenario
	}
	unusable := 0
	for _, v := range views {
		row := Row{Key: v.ID, Choice: &Choice{Profile: v.ID, Preferred: v.Preferred, Locked: v.Locked}, Cells: []Cell{text(v.ID + choiceMark(v)), text(v.Provider), stateCell(v, now), text(""), text(""), text(""),
			text(fmt.Sprint(v.ErrorCount)), text(ago(v.LastUsed, now)), text(ago(v.LastSuccess, now))}}
		row.Detail = []string{profileDetail(v, now), fmt.Sprintf("in all: %d failed, %d answered", v.Failures, v.Successes)}
		if note := choiceDetail(v); note != "" {
			row.Detail = append(row.Detail, note)
		}
		if v.State != runner.ProfileAvailable {
			unusable++
			row.Target = v.ID
			if v.Until != nil {
				row.Cells[3] = text(left(v.Until.Sub(now)))
			}
			row.Cells[4] = text(deref(v.Reason))
			row.Cells[5] = text(scope(v.Model))
		}
		t.Rows = append(t.Rows, row)
	}
	switch {
	case len(views) == 0:
	case unusable == 0:
		t.Summary = fmt.Sprintf("%s, all available", plural(len(views), "profile"))
	default:
		t.Summary = fmt.Sprintf("%s, %d unusable now", plural(len(views), "profile"), unusable)
	}
	return t
}

// choiceMark marks the session's choice after a profile's id.
func choiceMark(v runner.ProfileView) string {
	switch {
	case v.Locked:
		return " " + lockedMark
	case v.Preferred:
		return " " + preferredMark
	}
	return ""
}

// The marks of the session's choice.
const (
	preferredMark = "★"
	lockedMark    = "🔒"
)

// choiceDetail says what the session's choice of a profile does.
func choiceDetail(v runner.ProfileView) string {
	switch {
	case v.Locked:
		return lockedMark + " locked: the only profile this session uses (l unlocks)"
	case v.Preferred:
		return preferredMark + " preferred: tried first while usable (p unprefers)"
	}
	return ""
}

// stateCell is "available", or "cooldown until T" / "disabled until T".
func stateCell(v runner.ProfileView, now time.Time) Cell {
	switch {
	case v.State == runner.ProfileAvailable:
		return Cell{Text: v.State, Tone: ToneOK}
	case v.Until == nil:
		return Cell{Text: v.State, Tone: ToneBad}
	case v.State == runner.ProfileCooldown:
		return Cell{Text: v.State + " until " + clock(*v.Until, now), Tone: ToneWarn}
	}
	return Cell{Text: v.State + " until " + clock(*v.Until, now), Tone: ToneBad}
}

// profileDetail says in a sentence where the profile stands and why.
func profileDetail(v runner.ProfileView, now time.Time) string {
	if v.State == runner.ProfileAvailable || v.Until == nil {
		return v.ID + " is " + v.State
	}
	var b strings.Builder
	verb := "cools down"
	if v.State == runner.ProfileDisabled {
		verb = "is disabled"
	}
	fmt.Fprintf(&b, "%s %s for %s (until %s) after %s, for %s", v.ID, verb, left(v.Until.Sub(now)), clock(*v.Until, now),
		deref(v.Reason), scope(v.Model))
	if src := deref(v.UntilSource); src != "" && src != "schedule" {
		fmt.Fprintf(&b, "; its length came from the provider's %s header", src)
	}
	b.WriteString(" · c clears it")
	return b.String()
}

// WindowNotice is the transcript's line for a profile that went into a
// window: "❄ profile openai:a cools down for 30s (until 15:04:05): rate_limit
// on gpt-4.1".
func WindowNotice(v runner.ProfileView, now time.Time) string {
	if v.Until == nil {
		return fmt.Sprintf("❄ profile %s is in %s: %s", v.ID, v.State, deref(v.Reason))
	}
	mark, verb := "❄", "cools down"
	if v.State == runner.ProfileDisabled {
		mark, verb = "⊘", "is disabled"
	}
	s := fmt.Sprintf("%s profile %s %s for %s (until %s): %s", mark, v.ID, verb, left(v.Until.Sub(now)), clock(*v.Until, now), deref(v.Reason))
	if v.Model != "" {
		s += " on " + v.Model
	}
	return s
}

// scope words the model a window covers ("" is the whole profile).
func scope(model string) string {
	if model == "" {
		return "all models"
	}
	return model
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
