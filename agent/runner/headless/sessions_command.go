package headless

import (
	"context"
	"fmt"
	"io"

	"github.com/steer-tui/steer/agent/runner"
)

// SessionsOptions are the arguments of `steer sessions`.
type SessionsOptions struct {
	// StateDir is the state directory whose database is read
	// (config.StateDir).
	StateDir string
	// Show is the id of the session whose transcript to print; "" lists
	// the sessions.
	Show string
	// JSON prints JSON instead of text.
	JSON bool
	// Context prints what the model sees of the session instead of its
	// whole history.
	Context bool
	// Export is the id of the session to export in Format (html, md or
	// jsonl; "" is html), with Secrets (the environment's keys) redacted.
	Export  string
	Format  string
	Secrets []string
	// Search, when set, lists the sessions whose messages or titles match
	// it.
	Search string
	// Rename is the id of the session to name Name.
	Rename, Name string
	// Import is the JSONL export to import ("-": Stdin), in Workspace ("":
	// the export's).
	Import, Workspace string
	Stdin             io.Reader
}

// Sessions is `steer sessions`: it prints the saved sessions (ListSessions),
// or one transcript (ShowSession). It opens the database read-only when
// another steer owns the state directory, so that it works while one runs.
// A database it cannot open is ExitUsage.
func Sessions(ctx context.Context, o SessionsOptions, stdout, stderr io.Writer) int {
	store, err := runner.OpenStateView(o.StateDir, runner.StateViewOptions{ReadOnlyWhenLocked: true})
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return ExitUsage
	}
	defer store.Close()
	if o.Import != "" {
		return ImportSession(ctx, store, o.Import, o.Workspace, o.JSON, o.Stdin, stdout, stderr)
	}
	if o.Rename != "" {
		return RenameSession(ctx, store, o.Rename, o.Name, stdout, stderr)
	}
	if o.Search != "" {
		return SearchSessions(ctx, store, o.Search, o.JSON, stdout, stderr)
	}
	if o.Export != "" {
		return ExportSession(ctx, store, o.Export, o.Format, o.Secrets, stdout, stderr)
	}
	if o.Show != "" {
		if o.Context {
			return ShowContext(ctx, store, o.Show, o.JSON, stdout, stderr)
		}
		return ShowSession(ctx, store, o.Show, o.JSON, stdout, stderr)
	}
	return ListSessions(ctx, store, o.JSON, stdout, stderr)
}
