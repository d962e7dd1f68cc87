package inspector

import (
	"strings"
	"testing"
	"time"
)

// TestRegistry: every registered inspector has its names and words, no two
// share a name or a command, each is found by both, and each draws and
// prints its empty view (what the TUI shows while loading).
func TestRegistry(t *testing.T) {
	names, commands := map[string]bool{}, map[string]bool{}
	for _, ins := range All() {
		t.Run(ins.Name(), func(t *testing.T) {
			if ins.Name() == "" || ins.Command() == "" || ins.Summary() == "" || ins.Usage() == "" || ins.Help() == "" {
				t.Errorf("incomplete: name %q, command %q, summary %q, usage %q, help %.20q",
					ins.Name(), ins.Command(), ins.Summary(), ins.Usage(), ins.Help())
			}
			if names[ins.Name()] || commands[ins.Command()] {
				t.Errorf("name %q or command %q registered twice", ins.Name(), ins.Command())
			}
			names[ins.Name()], commands[ins.Command()] = true, true
			if got, ok := Lookup(ins.Name()); !ok || got != ins {
				t.Errorf("Lookup(%q) = %v, %v", ins.Name(), got, ok)
			}
			if got, ok := ByCommand(ins.Command()); !ok || got != ins {
				t.Errorf("ByCommand(%q) = %v, %v", ins.Command(), got, ok)
			}
			if table := ins.Table(nil, Frame{Now: time.Now()}); table.Title == "" || len(table.Columns) == 0 || table.Empty == "" {
				t.Errorf("empty table %+v: want a title, columns and what it says with no rows", table)
			}
			var out strings.Builder
			ins.Print(&out, nil, time.Now())
			if out.Len() == 0 {
				t.Errorf("prints nothing for an empty view")
			}
			if c := ins.Clear(); c != nil && (c.What == "" || c.Consequence == "" || c.Live == nil || c.Saved == nil) {
				t.Errorf("incomplete clear %+v", c)
			}
		})
	}
	if _, ok := Lookup("cats"); ok {
		t.Errorf("Lookup found an inspector that is not registered")
	}
	if got := strings.Join(Names(), "|"); got != "profiles|engines|lanes|runs|mcp|lsp|config|memory|hooks|permissions|context" {
		t.Errorf("Names() = %q", got)
	}
}
