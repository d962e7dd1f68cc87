package runner

import (
	"fmt"
	"sync"

	"github.com/steer-tui/steer/agent/tools"
	"github.com/steer-tui/steer/agent/tools/permissions"
)

// PermissionsView is what /permissions shows: the approval mode, every
// rule in force with where it came from, the files a rule can be saved
// to, and which OS protections are active.
type PermissionsView struct {
	Mode  tools.Mode `json:"mode"`
	Rules []RuleView `json:"rules"`
	// Files are the config files a rule is saved to, by scope
	// (RuleScopeProject, RuleScopeGlobal).
	Files       map[string]string `json:"files"`
	Protections []string          `json:"protections"`
}

// RuleView is one rule: Kind is allow, ask or deny; Source its config
// file, or RuleSourceSession.
type RuleView struct {
	Kind   string `json:"kind"`
	Text   string `json:"rule"`
	Source string `json:"source"`
}

// permissionDesk is the runtime's part for permission rules: the
// process's Rulebook, and the gate of the session's tools, which holds the
// session's grants. It calls only those two.
type permissionDesk struct {
	book *Rulebook         // nil: no rules
	mode func() tools.Mode // the session's approval mode now (planDesk's)

	gateMu sync.Mutex
	gate   tools.Gater
}

// useGate makes g the gate whose grants the desk shows.
func (d *permissionDesk) useGate(g tools.Gater) {
	d.gateMu.Lock()
	defer d.gateMu.Unlock()
	d.gate = g
}

func (d *permissionDesk) currentGate() tools.Gater {
	d.gateMu.Lock()
	defer d.gateMu.Unlock()
	return d.gate
}

// Permissions lists the rules in force: the config's, lowest layer
// first, then the session's.
func (d *permissionDesk) Permissions() PermissionsView {
	v := d.book.View(d.mode())
	for _, r := range d.currentGate().Grants() {
		v.Rules = append(v.Rules, RuleView{Kind: string(r.Kind), Text: r.Text, Source: RuleSourceSession})
	}
	return v
}

// View is the book's rules as /permissions shows them under the approval
// mode; a nil book has none.
func (b *Rulebook) View(mode tools.Mode) PermissionsView {
	v := PermissionsView{Mode: mode, Rules: []RuleView{}, Files: map[string]string{}, Protections: []string{}}
	if b == nil {
		return v
	}
	for _, r := range b.Rules() {
		v.Rules = append(v.Rules, RuleView{Kind: string(r.Kind), Text: r.Text, Source: r.Source})
	}
	if p := b.setup.Project; p != "" {
		v.Files[RuleScopeProject] = p
	}
	if p := b.setup.Global; p != "" {
		v.Files[RuleScopeGlobal] = p
	}
	v.Protections = append(v.Protections, b.Protections()...)
	return v
}

// SaveRule writes a rule of kind (allow, ask, deny) to the config file of
// scope (RuleScopeProject, RuleScopeGlobal) or, for RuleSourceSession,
// keeps it for the rest of the session; either way it is in force at once.
func (d *permissionDesk) SaveRule(scope, kind, text string) error {
	if scope == RuleSourceSession {
		r, err := permissions.Parse(text, permissions.Kind(kind))
		if err != nil {
			return err
		}
		r.Source = RuleSourceSession
		d.currentGate().Grant(r)
		return nil
	}
	if d.book == nil {
		return fmt.Errorf("no config files to save a rule to")
	}
	_, err := d.book.Save(scope, kind, text)
	return err
}

// RemoveRule takes a rule out of force, and out of the file it came from.
func (d *permissionDesk) RemoveRule(kind, text, source string) error {
	if source == RuleSourceSession {
		if !d.currentGate().Revoke(kind, text) {
			return fmt.Errorf("this session has no %s rule %q", kind, text)
		}
		return nil
	}
	if d.book == nil {
		return fmt.Errorf("no rule %q", text)
	}
	return d.book.Remove(kind, text, source)
}

// Permissions are the current session's rules (permissionDesk).
func (c *currentSession) Permissions() PermissionsView { return c.current().Permissions() }

// SaveRule saves a rule as the current session's desk does.
func (c *currentSession) SaveRule(scope, kind, text string) error {
	return c.current().SaveRule(scope, kind, text)
}

// RemoveRule removes a rule as the current session's desk does.
func (c *currentSession) RemoveRule(kind, text, source string) error {
	return c.current().RemoveRule(kind, text, source)
}
