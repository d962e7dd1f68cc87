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

// Context is the context inspector: /context, rpc `inspect
// {what:"context"}`: the next request broken down into the pieces it
// sends, each in tokens and as a share of the window, with the guard's
// route and a total that is the guard's measure of the request. `steer
// inspect context` refuses: the next request is a running session's.
var Context = New(Def[runner.ContextBreakdown]{
	Name:    "context",
	Summary: "the next request broken down: prompt, files, skills, tools, turns",
	Usage:   "the next request broken down (in a running session: /context, rpc inspect context)",
	Help: `the next request broken down as the guard measures it: the system prompt,
the skills catalogue, the context files, a SessionStart hook's context, each
tool's schema (an MCP server's tools on one line), the messages by turn with
the largest tool results within them, each in tokens and as a share of the
window, then the guard's route and the total, which is the parts' sum (a tool
result within its turn is not counted again). It needs a running session.
--json (rpc) gives {parts: [{label, kind, tokens, share, within}], total,
window, budget, route}.`,
	Read: func(_ context.Context, src Source, _ Query) (runner.ContextBreakdown, error) {
		return src.ContextBreakdown(), nil
	},
	ReadSaved: func(context.Context, Saved) (runner.ContextBreakdown, error) {
		return runner.ContextBreakdown{}, &UsageError{Err: errors.New(
			`the next request is a running session's: use /context in steer, or rpc's inspect {"what":"context"}`)}
	},
	JSON: func(v runner.ContextBreakdown) any {
		if v.Parts == nil {
			v.Parts = []runner.ContextPart{}
		}
		return v
	},
	Print: printContext,
	Table: func(v runner.ContextBreakdown, _ Frame) Table { return contextTable(v) },
})

func printContext(w io.Writer, v runner.ContextBreakdown, _ time.Time) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "PART\tTOKENS\tWINDOW\t")
	for _, p := range v.Parts {
		fmt.Fprintf(tw, "%s\t%d\t%s\t\n", partLabel(p), p.Tokens, share(p.Share, v.Window))
	}
	fmt.Fprintf(tw, "total\t%d\t%s\t\n", v.Total, totalShare(v))
	tw.Flush()
	fmt.Fprintf(w, "\n%s.\n", contextSummary(v))
}

// contextTable is a row per part in the order the request sends them, a
// tool result within its turn indented under it, and the total last.
func contextTable(v runner.ContextBreakdown) Table {
	t := Table{
		Title:   "Context",
		Summary: contextSummary(v),
		Columns: []Column{{Title: "PART", Max: 60}, {Title: "TOKENS"}, {Title: "WINDOW"}},
		Empty:   "the next request has nothing in it yet",
	}
	if len(v.Parts) == 0 {
		return t
	}
	for i, p := range v.Parts {
		row := Row{Key: fmt.Sprintf("%d %s", i, p.Label), Cells: []Cell{text(partLabel(p)), text(fmt.Sprint(p.Tokens)),
			text(share(p.Share, v.Window))}}
		row.Detail = append(row.Detail, partDetail(p))
		t.Rows = append(t.Rows, row)
	}
	total := Cell{Text: totalShare(v)}
	switch v.Route {
	case runner.MeterTruncate:
		total.Tone = ToneWarn
	case runner.MeterCompact:
		total.Tone = ToneBad
	}
	t.Rows = append(t.Rows, Row{Key: "total", Cells: []Cell{text("total"), text(fmt.Sprint(v.Total)), total},
		Detail: []string{"the guard's measure of the next request: the sum of the lines above that are not indented"}})
	return t
}

// partLabel indents a part that is within the one above it.
func partLabel(p runner.ContextPart) string {
	if p.Within {
		return "  ↳ " + p.Label
	}
	return p.Label
}

func partDetail(p runner.ContextPart) string {
	if p.Within {
		return fmt.Sprintf("%s (%s): %d tokens, counted in its turn above", p.Label, p.Kind, p.Tokens)
	}
	return fmt.Sprintf("%s (%s): %d tokens", p.Label, p.Kind, p.Tokens)
}

// share words a part's share of the window; "-" when the window is
// unknown.
func share(s float64, window int) string {
	if window <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*s)
}

func totalShare(v runner.ContextBreakdown) string {
	if v.Window <= 0 {
		return "-"
	}
	return share(float64(v.Total)/float64(v.Window), v.Window)
}

// contextSummary says what the guard would do and against what.
func contextSummary(v runner.ContextBreakdown) string {
	if v.Window <= 0 {
		return fmt.Sprintf("route %s · the model's window is unknown", v.Route)
	}
	return fmt.Sprintf("route %s · %d of the %d tokens the prompt may use (window %d)", v.Route, v.Total, v.Budget, v.Window)
}
