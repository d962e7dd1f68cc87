package inspect

import (
	"fmt"
	"strings"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

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
		row := Row{Key: v.ID, Cells: []Cell{text(v.ID + choiceMark(v)), text(v.Provider), stateCell(v, now), text(""), text(""), text(""),
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
