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

// TestRegistryDynamic: the dynamic commands are looked up after the
// registered ones, whatever their case, and SetDynamic replaces them all.
func TestRegistryDynamic(t *testing.T) {
	r := New()
	r.Register(Command{Name: "model", Summary: "registered"})
	r.SetDynamic([]Command{{Name: "srv:Greet"}, {Name: "model", Summary: "dynamic"}})
	if c, ok := r.Lookup("srv:greet"); !ok || c.Name != "srv:Greet" {
		t.Fatalf("dynamic lookup = %+v, %v", c, ok)
	}
	if c, _ := r.Lookup("model"); c.Summary != "registered" {
		t.Fatalf("a dynamic command shadowed a registered one: %+v", c)
	}
	if len(r.All()) != 1 || len(r.Dynamic()) != 2 {
		t.Fatalf("all %v, dynamic %v", r.All(), r.Dynamic())
	}
	r.SetDynamic(nil)
	if _, ok := r.Lookup("srv:greet"); ok || len(r.Dynamic()) != 0 {
		t.Fatal("SetDynamic(nil) kept the old commands")
	}
}
