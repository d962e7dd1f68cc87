package inspector

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

// Hooks is the hooks inspector: /hooks, rpc `inspect {what:"hooks"}`: the
// configured hooks with the last outcome of each. `steer inspect hooks`
// refuses: outcomes live in the running session, not in the state
// directory (`steer config` shows the configured hooks).
var Hooks = New(Def[[]runner.HookView]{
	Name:    "hooks",
	Summary: "hooks: event, matcher, command, timeout, last outcome",
	Usage:   "the configured hooks (a running session's /hooks also has their last outcomes)",
	Help: `every configured hook (the config's hooks, in Claude Code's shape) with
its event, matcher, command, timeout, the file it came from and, in a running
session, its last outcome. --json prints {hooks: [{name, event, matcher,
command, timeoutNs, source, last, lastAt, problem}]}.`,
	Read: func(_ context.Context, src Source, _ Query) ([]runner.HookView, error) {
		return src.Hooks(), nil
	},
	ReadSaved: func(context.Context, Saved) ([]runner.HookView, error) {
		return nil, &UsageError{Err: errors.New(`a hook's outcomes live in its session: use /hooks in steer, or rpc's inspect {"what":"hooks"}`)}
	},
	JSON: func(v []runner.HookView) any {
		if v == nil {
			v = []runner.HookView{}
		}
		return struct {
			Hooks []runner.HookView `json:"hooks"`
		}{v}
	},
	Print: printHooks,
	Table: func(v []runner.HookView, f Frame) Table { return hooksTable(v, f.Now) },
})

func printHooks(w io.Writer, v []runner.HookView, _ time.Time) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "HOOK\tMATCHER\tCOMMAND\tTIMEOUT\tSOURCE\tLAST")
	for _, h := range v {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", h.Name, orDash(h.Matcher), oneLine(h.Command, 60), h.Timeout, h.Source, orDash(h.Last))
	}
	tw.Flush()
}

// hooksTable is every hook in configuration order; a failed last run is
// marked bad, and the row's details say when it ran.
func hooksTable(v []runner.HookView, now time.Time) Table {
	t := Table{
		Title: "Hooks",
		Columns: []Column{{Title: "HOOK", Max: 20}, {Title: "MATCHER", Max: 16}, {Title: "COMMAND", Max: 40},
			{Title: "TIMEOUT", Drop: 2}, {Title: "SOURCE", Max: 30, Drop: 1}, {Title: "LAST", Max: 40}},
		Empty: "no hooks are configured (hooks in the config, in Claude Code's shape)",
	}
	for _, h := range v {
		last := Cell{Text: orDash(h.Last)}
		if h.Problem {
			last.Tone = ToneBad
		}
		row := Row{Key: h.Name, Cells: []Cell{text(h.Name), text(orDash(h.Matcher)), text(oneLine(h.Command, 80)),
			text(h.Timeout.String()), text(h.Source), last}}
		row.Detail = append(row.Detail, h.Event+" hook from "+h.Source+": "+h.Command)
		if !h.LastAt.IsZero() {
			row.Detail = append(row.Detail, fmt.Sprintf("last ran %s ago: %s", now.Sub(h.LastAt).Round(time.Second), h.Last))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
