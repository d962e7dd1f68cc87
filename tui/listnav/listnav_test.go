package listnav

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

func TestMove(t *testing.T) {
	up, down := tea.KeyMsg{Type: tea.KeyUp}, tea.KeyMsg{Type: tea.KeyDown}
	pgup, pgdn := tea.KeyMsg{Type: tea.KeyPgUp}, tea.KeyMsg{Type: tea.KeyPgDown}
	home, end := tea.KeyMsg{Type: tea.KeyHome}, tea.KeyMsg{Type: tea.KeyEnd}
	cases := []struct {
		name         string
		sel, n, page int
		msg          tea.KeyMsg
		want         int
		wantOK       bool
	}{
		{"down", 0, 5, 3, down, 1, true},
		{"ctrl+n is down", 0, 5, 3, tea.KeyMsg{Type: tea.KeyCtrlN}, 1, true},
		{"down stops at the last", 4, 5, 3, down, 4, true},
		{"up", 3, 5, 3, up, 2, true},
		{"ctrl+p is up", 3, 5, 3, tea.KeyMsg{Type: tea.KeyCtrlP}, 2, true},
		{"up stops at the first", 0, 5, 3, up, 0, true},
		{"page down", 1, 10, 3, pgdn, 4, true},
		{"page down stops at the last", 8, 10, 3, pgdn, 9, true},
		{"page up", 7, 10, 3, pgup, 4, true},
		{"page up stops at the first", 2, 10, 3, pgup, 0, true},
		{"a page is at least one", 2, 10, 0, pgdn, 3, true},
		{"home", 7, 10, 3, home, 0, true},
		{"end", 2, 10, 3, end, 9, true},
		{"an empty list stays at 0", 0, 0, 3, down, 0, true},
		{"end of an empty list is 0", 0, 0, 3, end, 0, true},
		{"a selection past a shrunk list comes back", 9, 3, 3, up, 2, true},
		{"another key is not a move", 2, 10, 3, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("j")}, 2, false},
		{"enter is not a move", 2, 10, 3, tea.KeyMsg{Type: tea.KeyEnter}, 2, false},
	}
	k := DefaultKeyMap()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := k.Move(c.sel, c.n, c.page, c.msg)
			if got != c.want || ok != c.wantOK {
				t.Errorf("Move(%d, %d, %d, %s) = %d, %v; want %d, %v", c.sel, c.n, c.page, c.msg, got, ok, c.want, c.wantOK)
			}
		})
	}
}

func TestMoveHonoursDisabledAndAddedKeys(t *testing.T) {
	k := DefaultKeyMap()
	k.Up.SetKeys("up", "k")
	k.Top.SetEnabled(false)
	if got, ok := k.Move(3, 5, 2, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("k")}); got != 2 || !ok {
		t.Errorf("k moved to %d, %v; want 2, true", got, ok)
	}
	if got, ok := k.Move(3, 5, 2, tea.KeyMsg{Type: tea.KeyHome}); got != 3 || ok {
		t.Errorf("a disabled Home moved to %d, %v", got, ok)
	}
}

func TestEveryBindingHasHelp(t *testing.T) {
	for _, b := range DefaultKeyMap().Bindings() {
		if h := b.Help(); h.Key == "" || h.Desc == "" || len(b.Keys()) == 0 {
			t.Errorf("binding %v: help %+v", b.Keys(), h)
		}
	}
}
