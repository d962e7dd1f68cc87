package inspect

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/inspector"
	"github.com/steer-tui/steer/tui/msgs"
)

// TestProfilesTable: each profile's state, the time left (which moves with
// the clock), the reason and scope of its window, and which rows can be
// cleared.
func TestProfilesTable(t *testing.T) {
	for _, c := range []struct {
		name  string
		after time.Duration
		rows  [][]string // the cells of the primary, backup and spare rows
	}{
		{"just after the failure", 0, [][]string{
			{"scripted:primary", "scripted", "cooldown until " + clock(epoch.Add(30*time.Second), epoch), "30s", "auth", "all models", "1", "just now", "never"},
			{"scripted:backup", "scripted", "available", "", "", "", "0", "just now", "just now"},
			{"scripted:spare", "scripted", "disabled until " + clock(epoch.Add(4*time.Hour), epoch), "4h00m", "billing", "all models", "1", "1h ago", "never"},
		}},
		{"the cooldown counts down", 12 * time.Second, [][]string{
			{"scripted:primary", "scripted", "cooldown until " + clock(epoch.Add(30*time.Second), epoch), "18s", "auth", "all models", "1", "12s ago", "never"},
			{"scripted:backup", "scripted", "available", "", "", "", "0", "11s ago", "11s ago"},
			{"scripted:spare", "scripted", "disabled until " + clock(epoch.Add(4*time.Hour), epoch), "3h59m", "billing", "all models", "1", "1h ago", "never"},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			now := epoch.Add(c.after)
			table := profilesTable(profiles(epoch), now)
			if len(table.Rows) != len(c.rows) {
				t.Fatalf("%d rows, want %d", len(table.Rows), len(c.rows))
			}
			for i, want := range c.rows {
				if got := cells(table.Rows[i]); strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("row %d:\n got %q\nwant %q", i, got, want)
				}
			}
			if got := []string{table.Rows[0].Target, table.Rows[1].Target, table.Rows[2].Target}; strings.Join(got, ",") != "scripted:primary,,scripted:spare" {
				t.Errorf("clearable rows %q: only the profiles in a window", got)
			}
			if table.Summary != "3 profiles, 2 unusable now" {
				t.Errorf("summary %q", table.Summary)
			}
		})
	}
}

func TestWindowNotice(t *testing.T) {
	views := profiles(epoch)
	for _, c := range []struct {
		i    int
		want string
	}{
		{0, "❄ profile scripted:primary cools down for 30s (until " + clock(epoch.Add(30*time.Second), epoch) + "): auth"},
		{2, "⊘ profile scripted:spare is disabled for 4h00m (until " + clock(epoch.Add(4*time.Hour), epoch) + "): billing"},
	} {
		if got := inspector.WindowNotice(views[c.i], epoch); got != c.want {
			t.Errorf("notice %q, want %q", got, c.want)
		}
	}
}

func cells(r inspector.Row) []string {
	out := make([]string, len(r.Cells))
	for i, c := range r.Cells {
		out[i] = c.Text
	}
	return out
}

// TestARehearsalsLedgerIsLabelled: the rows of a rehearsal's own ledger
// say so, with the scenario, in the table's title.
func TestARehearsalsLedgerIsLabelled(t *testing.T) {
	views := profiles(epoch)
	if got := profilesTable(views, epoch).Title; got != "Auth profiles" {
		t.Errorf("the shared ledger's title %q", got)
	}
	for i := range views {
		views[i].Scenario = "rate-limit"
	}
	if got, want := profilesTable(views, epoch).Title, "Auth profiles · rehearsal ledger, scenario: rate-limit"; got != want {
		t.Errorf("title %q, want %q", got, want)
	}
}

// TestProfileChoiceKeys: p and l on a profile ask to prefer or lock it, and
// to undo that on the one already chosen; the rows mark the choice and the
// help says which way each key goes.
func TestProfileChoiceKeys(t *testing.T) {
	now := epoch
	m := newInspector(msgs.InspectProfiles, &now, 120, 14)
	views := profiles(epoch)
	m.SetView(inspector.ProfilesView{Profiles: views})
	pK := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'p'}}
	lK := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'l'}}
	cases := []struct {
		name              string
		preferred, locked int // the index of the chosen view, -1 for none
		key               tea.KeyMsg
		want              tea.Msg
		help              string
	}{
		{"p prefers", -1, -1, pK, msgs.PreferProfileMsg{Profile: "scripted:primary"}, "prefer"},
		{"p on the preferred one unprefers", 0, -1, pK, msgs.PreferProfileMsg{}, "unprefer"},
		{"l locks", -1, -1, lK, msgs.LockProfileMsg{Profile: "scripted:primary"}, "lock"},
		{"l on the locked one unlocks", 1, 0, lK, msgs.LockProfileMsg{}, "unlock"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vs := append([]runner.ProfileView(nil), views...)
			if c.preferred >= 0 {
				vs[c.preferred].Preferred = true
			}
			if c.locked >= 0 {
				vs[c.locked].Locked = true
			}
			m.SetView(inspector.ProfilesView{Profiles: vs})
			b := m.Keys().Prefer
			if c.key.String() == "l" {
				b = m.Keys().Lock
			}
			if !b.Enabled() || b.Help().Desc != c.help {
				t.Errorf("binding enabled %v, help %q; want %q", b.Enabled(), b.Help().Desc, c.help)
			}
			_, out := press(m, c.key)
			if len(out) != 1 || out[0] != c.want {
				t.Errorf("sent %v, want %v", out, c.want)
			}
		})
	}
	vs := append([]runner.ProfileView(nil), views...)
	vs[0].Locked, vs[1].Preferred = true, true
	table := profilesTable(vs, epoch)
	if got := []string{table.Rows[0].Cells[0].Text, table.Rows[1].Cells[0].Text, table.Rows[2].Cells[0].Text}; strings.Join(got, ",") !=
		"scripted:primary 🔒,scripted:backup ★,scripted:spare" {
		t.Errorf("profile cells %q, want the lock and the preference marked", got)
	}
	if d := table.Rows[0].Detail; !strings.Contains(strings.Join(d, "\n"), "locked: the only profile this session uses") {
		t.Errorf("detail %q says nothing of the lock", d)
	}
	trace := newInspector(msgs.InspectTrace, &now, 120, 14)
	if trace.Keys().Prefer.Enabled() || trace.Keys().Lock.Enabled() {
		t.Errorf("p and l are enabled in the trace")
	}
}
