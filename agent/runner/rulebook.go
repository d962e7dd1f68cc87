package runner

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/steer-tui/steer/agent/runner/config"
	"github.com/steer-tui/steer/agent/tools/permissions"
)

// Rulebook is the process's permission rules (permissions in every config
// layer) and where a rule the user saves goes: the tools' gate reads it at
// every call, /permissions lists and edits it. A host's runtimes share one.
// It calls only the config package, to change a file, and the workspace
// gate, to keep a trusted project trusted after steer's own change.
type Rulebook struct {
	setup RulebookSetup

	mu    sync.Mutex
	rules []permissions.Rule
}

// RulebookSetup is what a Rulebook starts from.
type RulebookSetup struct {
	// Rules are the config's rules, as loaded (config.Config.Permissions).
	Rules []config.PermissionRule
	// Env is where rules resolve: the workspace, home, the protected paths.
	Env permissions.Env
	// Global and Project are the files a saved rule goes to
	// (RuleScopeGlobal, RuleScopeProject); Project is the workspace's
	// .steer/config.json whether it exists yet or not.
	Global, Project string
	// Trust is the workspace's trust, whose record of the project file a
	// saved rule renews; nil for none.
	Trust *WorkspaceGate
	// Protections are the lines saying which OS protections are active
	// (the sandbox's own description), for /permissions.
	Protections []string
}

// The files a rule can be saved to.
const (
	RuleScopeProject = "project"
	RuleScopeGlobal  = "global"
)

// RuleSourceSession is the Source of a rule an "allow for this session"
// answer recorded.
const RuleSourceSession = "session"

// NewRulebook reads the config's rules; a rule that does not parse is an
// error naming its file and line (config.Load has checked them already).
func NewRulebook(s RulebookSetup) (*Rulebook, error) {
	b := &Rulebook{setup: s}
	for _, r := range s.Rules {
		pr, err := permissions.Parse(r.Text, permissions.Kind(r.Kind))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", r.Source, r.Line, err)
		}
		pr.Source = r.Source
		b.rules = append(b.rules, pr)
	}
	return b, nil
}

// Rules are the config's rules in force, lowest layer first.
func (b *Rulebook) Rules() []permissions.Rule {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.rules
}

// Env is where the rules resolve.
func (b *Rulebook) Env() permissions.Env { return b.setup.Env }

// Protections are the lines saying which OS protections are active.
func (b *Rulebook) Protections() []string { return b.setup.Protections }

// Save writes the rule to the file of scope and puts it in force at once.
// A rule saved to the project file of a trusted workspace keeps the
// workspace trusted (steer, not the repository, made the change); in an
// untrusted one it waits, like the rest of that file, for the trust.
func (b *Rulebook) Save(scope, kind, text string) (permissions.Rule, error) {
	r, err := permissions.Parse(text, permissions.Kind(kind))
	if err != nil {
		return permissions.Rule{}, err
	}
	path, err := b.file(scope)
	if err != nil {
		return permissions.Rule{}, err
	}
	trusted := b.setup.Trust != nil && b.setup.Trust.Trusted()
	if err := config.AddRule(path, kind, text); err != nil {
		return permissions.Rule{}, err
	}
	r.Source = path
	if scope == RuleScopeProject && b.setup.Trust != nil {
		if err := b.setup.Trust.Amend(path, trusted); err != nil {
			return r, err
		}
		if !b.setup.Trust.Trusted() {
			return r, nil
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !slices.ContainsFunc(b.rules, func(o permissions.Rule) bool { return same(o, r) }) {
		b.rules = append(slices.Clip(b.rules), r)
	}
	return r, nil
}

// Remove takes the rule out of the file it came from and out of force.
func (b *Rulebook) Remove(kind, text, source string) error {
	if source == RuleSourceSession {
		return errors.New("a rule allowed for this session is removed by /permissions of its session")
	}
	trusted := b.setup.Trust != nil && b.setup.Trust.Trusted()
	if err := config.RemoveRule(source, kind, text); err != nil {
		return err
	}
	if source == b.setup.Project && b.setup.Trust != nil {
		if err := b.setup.Trust.Amend(source, trusted); err != nil {
			return err
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.rules = slices.DeleteFunc(slices.Clone(b.rules), func(o permissions.Rule) bool {
		return string(o.Kind) == kind && o.Text == text && o.Source == source
	})
	return nil
}

func (b *Rulebook) file(scope string) (string, error) {
	switch {
	case scope == RuleScopeProject && b.setup.Project != "":
		return b.setup.Project, nil
	case scope == RuleScopeGlobal && b.setup.Global != "":
		return b.setup.Global, nil
	case scope == RuleScopeProject || scope == RuleScopeGlobal:
		return "", fmt.Errorf("no %s config file to save the rule to", scope)
	}
	return "", fmt.Errorf("unknown rule scope %q (want %s or %s)", scope, RuleScopeProject, RuleScopeGlobal)
}

func same(a, b permissions.Rule) bool {
	return a.Kind == b.Kind && a.Text == b.Text && a.Source == b.Source
}
