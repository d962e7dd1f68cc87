package inspector

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/steer-tui/steer/agent/humanize"
	"github.com/steer-tui/steer/agent/runner"
)

// Memory is the context files inspector: /memory, rpc `inspect
// {what:"memory"}`, `steer inspect memory` (of the current directory). It
// lists the AGENTS.md and CLAUDE.md files the system prompt carries, in
// its order, and those passed over with why.
var Memory = New(Def[[]runner.ContextFileView]{
	Name:    "memory",
	Summary: "context files (AGENTS.md, CLAUDE.md) in the prompt",
	Usage:   "the context files (AGENTS.md, CLAUDE.md) the system prompt carries, in its order",
	Help: `the context files the system prompt carries, outermost first: AGENTS.md
(or CLAUDE.md where no AGENTS.md is beside it) from the global config
directory, from every directory above the workspace up to the repository
root (or the home directory), and from the workspace itself. Each is read
again for every request, so an edit shows in the next one. They are text and
load whether or not the workspace is trusted. A file over 64 KB is cut; a
binary one, one that is not UTF-8 or a link leading out of the repository is
skipped, with why. /memory names each file from the workspace (AGENTS.md,
../CLAUDE.md; the global one from ~) so that its name fits the column; this
listing and --json give the full path. --json prints {files: [{path, level, size, loaded,
truncated, skipped}]}.`,
	Read: func(_ context.Context, src Source, _ Query) ([]runner.ContextFileView, error) {
		return src.ContextFiles(), nil
	},
	ReadSaved: func(_ context.Context, s Saved) ([]runner.ContextFileView, error) {
		if s.ContextFiles == nil {
			return nil, errors.New("the context files cannot be found here")
		}
		return s.ContextFiles()
	},
	JSON: func(v []runner.ContextFileView) any {
		if v == nil {
			v = []runner.ContextFileView{}
		}
		return struct {
			Files []runner.ContextFileView `json:"files"`
		}{v}
	},
	Print: printMemory,
	Table: func(v []runner.ContextFileView, _ Frame) Table { return memoryTable(v) },
})

// noContextFiles says where context files would be found.
const noContextFiles = "no context files: AGENTS.md (or CLAUDE.md) in the global config directory, " +
	"the directories above the workspace or the workspace"

// trustNote marks the context files as what they are for the trust
// decision: text, which loads without it.
const trustNote = "text: loaded without workspace trust"

func printMemory(w io.Writer, v []runner.ContextFileView, _ time.Time) {
	if len(v) == 0 {
		fmt.Fprintln(w, "There are "+noContextFiles+".")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FILE\tLEVEL\tSIZE\tSTATE")
	for _, f := range v {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.Path, f.Level, contextSize(f), contextState(f).Text)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%s (%s).\n", memorySummary(v), trustNote)
}

// memoryTable is every context file in the prompt's order, each as its
// level shows it best (relative to the workspace, the global one from ~:
// ContextFileView.Shown) so that the file's name survives a narrow column;
// a skipped one's detail says why.
func memoryTable(v []runner.ContextFileView) Table {
	t := Table{
		Title:   "Context files",
		Columns: []Column{{Title: "FILE", Max: 60}, {Title: "LEVEL", Drop: 1}, {Title: "SIZE"}, {Title: "STATE", Max: 30}},
		Empty:   noContextFiles + " (" + trustNote + ")",
	}
	for _, f := range v {
		row := Row{Key: f.Path, Cells: []Cell{text(cmp.Or(f.Shown, f.Path)), text(f.Level), text(contextSize(f)), contextState(f)}}
		switch {
		case f.Skipped != "":
			row.Detail = append(row.Detail, "skipped: "+f.Skipped)
		case f.Truncated:
			row.Detail = append(row.Detail, fmt.Sprintf("%s file; its first %s are in the prompt, with a note that it was cut",
				humanize.Bytes(f.Size), humanize.Bytes(runner.ContextFileMaxBytes)))
		default:
			row.Detail = append(row.Detail, fmt.Sprintf("%s context file, %d bytes in the prompt; %s", f.Level, f.Loaded, trustNote))
		}
		t.Rows = append(t.Rows, row)
	}
	if len(v) > 0 {
		t.Summary = memorySummary(v) + " · " + trustNote
	}
	return t
}

// memorySummary counts the files loaded, their bytes in the prompt, and
// those skipped.
func memorySummary(v []runner.ContextFileView) string {
	loaded, skipped, bytes := 0, 0, 0
	for _, f := range v {
		if f.Skipped != "" {
			skipped++
			continue
		}
		loaded++
		bytes += f.Loaded
	}
	s := fmt.Sprintf("%s loaded (%s)", plural(loaded, "file"), humanize.Bytes(int64(bytes)))
	if skipped > 0 {
		s += fmt.Sprintf(", %d skipped", skipped)
	}
	return s
}

// contextSize is a file's size on disk: bytes under 1 KB, else KB.
func contextSize(f runner.ContextFileView) string {
	if f.Size == 0 && f.Skipped != "" {
		return "-"
	}
	return humanize.Bytes(f.Size)
}

func contextState(f runner.ContextFileView) Cell {
	switch {
	case f.Skipped != "":
		return Cell{Text: "skipped", Tone: ToneWarn}
	case f.Truncated:
		return Cell{Text: "cut to " + humanize.Bytes(runner.ContextFileMaxBytes), Tone: ToneWarn}
	}
	return Cell{Text: "loaded", Tone: ToneOK}
}
