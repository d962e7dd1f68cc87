package inspector

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

// Permissions is the permission rules inspector: /permissions, rpc
// `inspect {what:"permissions"}`, `steer inspect permissions`. It lists the
// rules in force with the file each came from (or the session), the
// approval mode that decides what no rule covers, and which OS protections
// are active; its clear key removes the selected rule from its file.
var Permissions = New(Def[runner.PermissionsView]{
	Name:    "permissions",
	Summary: "permission rules with their sources, the sandbox",
	Usage:   "the permission rules in force, where each came from, and the sandbox's protections",
	Help: `the permission rules in force (permissions.allow, .ask and .deny of
every config layer, and those allowed for this session), each with the file it
came from, the approval mode that decides what no rule covers, and which OS
protections (tools.sandbox) are active. Precedence: deny, then ask, then
allow, then the mode. In steer, /permissions allow|ask|deny RULE adds a rule
(saved to the project or global config, or kept for the session) and c
removes the selected one. --json prints {mode, rules: [{kind, rule, source}],
files, protections}.`,
	Read: func(_ context.Context, src Source, _ Query) (runner.PermissionsView, error) {
		return src.Permissions(), nil
	},
	ReadSaved: func(_ context.Context, s Saved) (runner.PermissionsView, error) {
		if s.Permissions == nil {
			return runner.PermissionsView{}, errors.New("the permission rules cannot be read here")
		}
		return s.Permissions()
	},
	Print: printPermissions,
	Table: func(v runner.PermissionsView, _ Frame) Table { return permissionsTable(v) },
	Clear: &Clear{
		What: "rule", Verb: "remove", Done: "removed",
		Consequence: "The rule is taken out of the file it came from, and out of force at once.",
		Live: func(_ context.Context, src Source, target string) error {
			r, ok := ruleByTarget(src.Permissions(), target)
			if !ok {
				return fmt.Errorf("no rule %s", target)
			}
			return src.RemoveRule(r.Kind, r.Text, r.Source)
		},
		Saved: func(context.Context, Saved, string) error {
			return &UsageError{Err: errors.New("remove a rule in steer (/permissions, then c) or by editing its config file")}
		},
	},
})

// ruleTarget names a rule for the clear key: its list, its text and where
// it came from, as the confirmation shows it.
func ruleTarget(r runner.RuleView) string {
	return r.Kind + " " + r.Text + " (" + shownSource(r.Source) + ")"
}

func ruleByTarget(v runner.PermissionsView, target string) (runner.RuleView, bool) {
	for _, r := range v.Rules {
		if ruleTarget(r) == target {
			return r, true
		}
	}
	return runner.RuleView{}, false
}

// shownSource is a rule's source as a column shows it: the session, or
// the config file's directory and name.
func shownSource(s string) string {
	if s == runner.RuleSourceSession {
		return "this session"
	}
	return filepath.Join(filepath.Base(filepath.Dir(s)), filepath.Base(s))
}

// noRules says where rules come from, for a listing without any.
const noRules = "no permission rules: add them to permissions.allow, .ask or .deny in a config file, " +
	"or with /permissions allow RULE"

func permissionsSummary(v runner.PermissionsView) string {
	return fmt.Sprintf("%s · approval mode %s decides what no rule covers", plural(len(v.Rules), "rule"), v.Mode)
}

// protectionRows are the sandbox's lines, after the rules: nothing to
// remove there (tools.sandbox sets them).
func protectionRows(v runner.PermissionsView) []Row {
	lines := v.Protections
	if len(lines) == 0 {
		lines = []string{"no sandbox"}
	}
	var rows []Row
	for _, l := range lines {
		tone := ToneOK
		if strings.HasPrefix(l, "no sandbox") || strings.Contains(l, "not ") {
			tone = ToneWarn
		}
		rows = append(rows, Row{Key: "sandbox " + l, Cells: []Cell{{Text: "sandbox", Tone: tone}, text(l), text("tools.sandbox")},
			Detail: []string{"the OS sandbox of bash's commands, as this machine's kernel enforces it"}})
	}
	return rows
}

func permissionsTable(v runner.PermissionsView) Table {
	t := Table{
		Title:   "Permissions",
		Columns: []Column{{Title: "LIST"}, {Title: "RULE", Max: 80}, {Title: "SOURCE", Max: 40, Drop: 1}},
		Empty:   noRules,
		Summary: permissionsSummary(v),
	}
	for _, r := range v.Rules {
		tone := ToneOK
		switch r.Kind {
		case "deny":
			tone = ToneBad
		case "ask":
			tone = ToneWarn
		}
		row := Row{Key: ruleTarget(r), Target: ruleTarget(r),
			Cells:  []Cell{{Text: r.Kind, Tone: tone}, text(r.Text), text(shownSource(r.Source))},
			Detail: []string{r.Kind + " rule from " + r.Source}}
		t.Rows = append(t.Rows, row)
	}
	t.Rows = append(t.Rows, protectionRows(v)...)
	return t
}

func printPermissions(w io.Writer, v runner.PermissionsView, _ time.Time) {
	if len(v.Rules) == 0 {
		fmt.Fprintln(w, "There are "+noRules+".")
	} else {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "LIST\tRULE\tSOURCE")
		for _, r := range v.Rules {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Kind, r.Text, r.Source)
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "\nApproval mode %s decides what no rule covers.\n", v.Mode)
	if len(v.Protections) == 0 {
		fmt.Fprintln(w, "Sandbox: no sandbox.")
	}
	for _, p := range v.Protections {
		fmt.Fprintln(w, "Sandbox: "+p)
	}
}
