package headless

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/export"
)

// ImportSession is `steer sessions import FILE [--workspace DIR]`: it reads
// a JSONL export (FILE "-" is stdin) and creates a new, resumable session
// from it, working in workspace ("" keeps the export's), and prints its id
// (with asJSON, what was imported). A file it cannot read or refuses is
// ExitUsage, and nothing is created.
func ImportSession(ctx context.Context, store *runner.StateView, file, workspace string, asJSON bool, stdin io.Reader, stdout, stderr io.Writer) int {
	rd := stdin
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			fmt.Fprintf(stderr, "steer: import: %v\n", err)
			return ExitUsage
		}
		defer f.Close()
		rd = f
	}
	s, err := export.ReadJSONL(rd, runner.ImportCheck)
	if err != nil {
		fmt.Fprintf(stderr, "steer: import %s: %v; nothing was imported\n", file, err)
		return ExitUsage
	}
	if workspace == "" {
		workspace = s.Workspace
	}
	if workspace != "" {
		if workspace, err = filepath.Abs(workspace); err != nil {
			fmt.Fprintf(stderr, "steer: import: --workspace: %v\n", err)
			return ExitUsage
		}
		if _, err := os.Stat(workspace); err != nil {
			fmt.Fprintf(stderr, "steer: note: the workspace %s does not exist here; --workspace DIR remaps it\n", workspace)
		}
	}
	got, err := store.Import(ctx, s, workspace)
	if err != nil {
		fmt.Fprintf(stderr, "steer: import %s: %v; nothing was imported\n", file, err)
		return storeFailure(err)
	}
	if asJSON {
		return writeJSON(stdout, stderr, got)
	}
	fmt.Fprintln(stdout, got.ID)
	fmt.Fprintf(stderr, "steer: imported session %s as %s (%d entries, %d queued) in %s\n", got.OriginalID, got.ID, got.Entries, got.Queued, got.Workspace)
	return ExitOK
}
