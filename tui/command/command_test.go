package command

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

type ranMsg struct{ args string }

func TestRegistry(t *testing.T) {
	r := New()
	r.Register(Command{Name: "quit", Aliases: []string{"exit"}, Run: func(a string) tea.Msg { return ranMsg{a} }})
	r.Register(Command{Name: "model", Args: "[ref]", Run: func(a string) tea.Msg { return ranMsg{"model " + a} }})
	if c, ok := r.Lookup("EXIT"); !ok || c.Name != "quit" {
		t.Fatalf("alias lookup = %+v, %v", c, ok)
	}
	if _, ok := r.Lookup("nope"); ok {
		t.Fatal("found a command that does not exist")
	}
	r.Register(Command{Name: "model", Summary: "replaced", Run: func(string) tea.Msg { return nil }})
	if all := r.All(); len(all) != 2 || all[1].Summary != "replaced" {
		t.Fatalf("re-registering did not replace: %+v", all)
	}
	if names := r.Names(); names[0] != "model" || names[1] != "quit" {
		t.Fatalf("names = %v", names)
	}
}
