package inspector

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/steer-tui/steer/agent/runner"
)

// LSP is the language servers inspector: /lsp, rpc `inspect
// {what:"lsp"}`, `steer inspect lsp`. It lists the configured servers and
// the defaults found on PATH with their state, the files steer opened with
// each and what they published; its clear key restarts the selected
// server (a failed one stays failed until then).
var LSP = New(Def[[]runner.LSPServer]{
	Name:    "lsp",
	Summary: "language servers: state, open files, diagnostics",
	Usage:   "the language servers a session here would use, configured or found on PATH",
	Help: `every language server (the config's lsp, then gopls,
typescript-language-server, pyright-langserver and rust-analyzer when on PATH
and not configured) with its language, command, filetypes, state (not
started, starting, ready, failed with the reason and its last stderr lines,
stopped, disabled), the files steer opened with it and the diagnostics it
published. A server starts for the first file of its filetypes that write,
edit or diagnostics touch; in steer, c restarts the selected one. --json
prints {servers: [{language, command, args, filetypes, detected, state,
reason, stderr, pid, openFiles, diagnostics: {errors, warnings, others}}]}.`,
	Read: func(_ context.Context, src Source, _ Query) ([]runner.LSPServer, error) {
		return src.LSPServers(), nil
	},
	ReadSaved: func(_ context.Context, s Saved) ([]runner.LSPServer, error) {
		if s.LSP == nil {
			return nil, errors.New("the language servers cannot be read here")
		}
		return s.LSP()
	},
	JSON: func(v []runner.LSPServer) any {
		if v == nil {
			v = []runner.LSPServer{}
		}
		return struct {
			Servers []runner.LSPServer `json:"servers"`
		}{v}
	},
	Print: printLSP,
	Table: func(v []runner.LSPServer, _ Frame) Table { return lspTable(v) },
	Clear: &Clear{
		What: "language server", Verb: "restart", Done: "restarted",
		Consequence: "The server is stopped and started again; the files it had open are opened again as the tools touch them.",
		Live: func(_ context.Context, src Source, target string) error {
			return src.RestartLSP(target)
		},
		Saved: func(context.Context, Saved, string) error {
			return &UsageError{Err: errors.New("a server runs only in a session: restart it in steer (/lsp, then c)")}
		},
	},
})

// noLSP says where servers come from, for a listing without any.
const noLSP = "no language servers: none is configured (lsp in the config) and none of gopls, " +
	"typescript-language-server, pyright-langserver, rust-analyzer is on PATH"

func printLSP(w io.Writer, v []runner.LSPServer, _ time.Time) {
	if len(v) == 0 {
		fmt.Fprintln(w, noLSP+".")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LANGUAGE\tCOMMAND\tFILETYPES\tSTATE\tFILES\tDIAGNOSTICS\tREASON")
	for _, s := range v {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", s.Language, lspCommand(s), strings.Join(s.Filetypes, ","),
			s.State, s.OpenFiles, s.Diagnostics, orDash(oneLine(s.Reason, 80)))
	}
	tw.Flush()
	for _, s := range v {
		if len(s.Stderr) > 0 {
			fmt.Fprintf(w, "\n%s's last stderr lines:\n  %s\n", s.Language, strings.Join(s.Stderr, "\n  "))
		}
	}
}

// lspCommand is a server's command line, marked when it was found on PATH.
func lspCommand(s runner.LSPServer) string {
	c := strings.Join(append([]string{s.Command}, s.Args...), " ")
	if s.Detected {
		c += " (on PATH)"
	}
	return c
}

// lspTable is every server, in configuration order; the selected one's
// details are its filetypes, where it came from, its failure and stderr.
func lspTable(v []runner.LSPServer) Table {
	t := Table{
		Title: "Language servers",
		Columns: []Column{{Title: "LANGUAGE", Max: 14}, {Title: "COMMAND", Max: 32, Drop: 2}, {Title: "STATE", Max: 12},
			{Title: "FILES", Drop: 3}, {Title: "DIAGNOSTICS", Max: 30, Drop: 1}, {Title: "REASON", Max: 40}},
		Empty: noLSP,
	}
	counts := map[runner.LSPState]int{}
	for _, s := range v {
		counts[s.State]++
		row := Row{Key: s.Language, Cells: []Cell{text(s.Language), text(lspCommand(s)), lspState(s.State),
			text(fmt.Sprint(s.OpenFiles)), lspCounts(s), {Text: oneLine(s.Reason, 80), Tone: ToneBad}}}
		from := "configured in lsp." + s.Language
		if s.Detected {
			from = "found on PATH"
		}
		row.Detail = append(row.Detail, fmt.Sprintf("%s: .%s files; %s", from, strings.Join(s.Filetypes, " ."), plural(s.OpenFiles, "open file")))
		if s.PID > 0 {
			row.Detail = append(row.Detail, fmt.Sprintf("process %d", s.PID))
		}
		if s.Reason != "" {
			row.Detail = append(row.Detail, "failed: "+s.Reason)
		}
		for _, l := range s.Stderr {
			row.Detail = append(row.Detail, "stderr: "+l)
		}
		if s.State == runner.LSPDisabled {
			row.Detail = append(row.Detail, `not started: "enabled": false in its configuration`)
		} else {
			row.Target = s.Language
		}
		t.Rows = append(t.Rows, row)
	}
	t.Summary = stateSummary(len(v), "server", counts, []runner.LSPState{runner.LSPReady, runner.LSPStarting, runner.LSPNotStarted, runner.LSPFailed,
		runner.LSPStopped, runner.LSPDisabled})
	return t
}

// lspState is a server's state cell, toned by what it means for the tools.
func lspState(s runner.LSPState) Cell {
	switch s {
	case runner.LSPReady:
		return Cell{Text: string(s), Tone: ToneOK}
	case runner.LSPFailed:
		return Cell{Text: string(s), Tone: ToneBad}
	case runner.LSPStarting:
		return Cell{Text: string(s), Tone: ToneWarn}
	}
	return text(string(s))
}

// lspCounts is the diagnostics cell: errors make it bad, warnings a
// warning.
func lspCounts(s runner.LSPServer) Cell {
	c := Cell{Text: s.Diagnostics.String()}
	switch {
	case s.Diagnostics.Errors > 0:
		c.Tone = ToneBad
	case s.Diagnostics.Warnings > 0:
		c.Tone = ToneWarn
	}
	return c
}
