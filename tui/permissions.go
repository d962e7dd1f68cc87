package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/msgs"
	"github.com/steer-tui/steer/tui/sanitize"
)

// Permissions saves permission rules (the /permissions inspector reads and
// removes them through Inspectors). SaveRule may write a config file: it
// is called from tea.Cmd goroutines.
type Permissions interface {
	// SaveRule puts a rule of kind (allow, ask, deny) in force and saves it
	// to scope's file (runner.RuleScopeProject, RuleScopeGlobal) or keeps it
	// for the session (runner.RuleSourceSession).
	SaveRule(scope, kind, text string) error
}

// addRuleMsg asks where to save a rule typed after /permissions.
type addRuleMsg struct{ kind, text string }

// saveRuleMsg saves rules of kind to scope; then, when id is set, it
// answers that approval request with allow (the rules cover the call).
type saveRuleMsg struct {
	scope, kind string
	rules       []string
	session, id string
}

// savedRuleMsg says how saving went.
type savedRuleMsg struct {
	scope string
	rules []string
	err   error
}

// permissionsArgs is the /permissions argument: a list and a rule.
const permissionsArgs = "[LIST RULE]"

// permissionsCommand reads /permissions' arguments: none opens the
// inspector, "LIST RULE" asks where to save the rule.
func permissionsCommand(args string) tea.Msg {
	if args == "" {
		return msgs.OpenInspectorMsg{Which: msgs.InspectPermissions}
	}
	kind, text, _ := strings.Cut(args, " ")
	text = strings.TrimSpace(text)
	switch {
	case kind != "allow" && kind != "ask" && kind != "deny":
		return msgs.HintMsg{Text: "usage: /permissions [allow|ask|deny RULE] (for example /permissions allow Bash(git diff:*))"}
	case text == "":
		return msgs.HintMsg{Text: "which rule? /permissions " + kind + " RULE, like Bash(npm run test:*) or Read(./docs/**)"}
	}
	return addRuleMsg{kind: kind, text: text}
}

// handleAddRule asks where the rule goes: the project's config, the
// global one, or only this session.
func (m Model) handleAddRule(msg addRuleMsg) (Model, tea.Cmd) {
	save := func(scope string) tea.Msg {
		return saveRuleMsg{scope: scope, kind: msg.kind, rules: []string{msg.text}}
	}
	items := []dialog.Item{
		{Label: "Save to the project config", Detail: ".steer/config.json of the workspace", Shortcut: "p", Msg: save(runner.RuleScopeProject)},
		{Label: "Save to the global config", Detail: "your config.json, for every workspace", Shortcut: "g", Msg: save(runner.RuleScopeGlobal)},
		{Label: "This session only", Shortcut: "s", Msg: save(runner.RuleSourceSession)},
		{Label: "Cancel", Shortcut: "n"},
	}
	title := fmt.Sprintf("Add %s rule %s", msg.kind, sanitize.String(msg.text, sanitize.Options{}))
	return m.openDialog(dialog.NewQuestion(m.dialogDeps(), title, "Where does the rule go?", items, nil)), nil
}

// handleSaveRule saves the rules off the Update goroutine, then answers the
// approval request the save came from, if any.
func (m Model) handleSaveRule(msg saveRuleMsg) (Model, tea.Cmd) {
	rt := m.rt
	m.calls.submit(call{run: func() tea.Msg {
		for _, r := range msg.rules {
			if err := rt.SaveRule(msg.scope, msg.kind, r); err != nil {
				return savedRuleMsg{scope: msg.scope, rules: msg.rules, err: err}
			}
		}
		if msg.id != "" {
			if err := rt.ApproveIn(msg.session, msg.id, runner.ApproveOnce); err != nil {
				return msgs.ErrorMsg{Action: "answer the approval", Err: err}
			}
		}
		return savedRuleMsg{scope: msg.scope, rules: msg.rules}
	}})
	return m, nil
}

func (m Model) handleSavedRule(msg savedRuleMsg) (Model, tea.Cmd) {
	m = m.reloadInspector(msgs.InspectPermissions)
	what := strings.Join(msg.rules, ", ")
	if msg.err != nil {
		return m.updateStatus(msgs.ErrorMsg{Action: "save the rule " + what, Err: msg.err})
	}
	where := map[string]string{runner.RuleScopeProject: "saved to the project config",
		runner.RuleScopeGlobal: "saved to the global config", runner.RuleSourceSession: "kept for this session"}[msg.scope]
	return m.hint(what + " " + where)
}
