package config

import "github.com/steer-tui/steer/agent/tools/permissions"

// The permission lists, as Claude Code's settings name them.
const (
	RuleAllow = "allow"
	RuleAsk   = "ask"
	RuleDeny  = "deny"
)

// RuleKinds are the permission lists in order of precedence, lowest first.
var RuleKinds = []string{RuleAllow, RuleAsk, RuleDeny}

// PermissionRule is one rule of a permissions list, as written, with the
// file and line it came from.
type PermissionRule struct {
	Text string
	// Kind is RuleAllow, RuleAsk or RuleDeny.
	Kind   string
	Source string
	Line   int
}

// permissions gathers the rules of every layer use picks: unlike other
// lists, a higher layer's rules add to a lower layer's, so that a project
// can deny more than the user's own file does.
func permissionsOf(layers []Layer, use func(Layer) bool) ([]PermissionRule, error) {
	var out []PermissionRule
	for _, l := range layers {
		if !use(l) {
			continue
		}
		lists := l.root.get("permissions")
		for _, kind := range RuleKinds {
			list := lists.get(kind)
			if list == nil {
				continue
			}
			for i, n := range list.elems {
				if err := checkRule(n.str, kind); err != nil {
					return nil, &Error{File: l.Path, Line: n.line, Path: indexPath("permissions."+kind, i), Msg: err.Error()}
				}
				out = append(out, PermissionRule{Text: n.str, Kind: kind, Source: l.Path, Line: n.line})
			}
		}
	}
	return out, nil
}

// checkRule says why text is not a rule of kind's list.
func checkRule(text, kind string) error {
	_, err := permissions.Parse(text, permissions.Kind(kind))
	return err
}
