package headless

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/steer-tui/steer/agent/runner"
)

// RenameSession is `steer sessions rename ID NAME`: it names the session
// and says so on stdout; an unknown id is ExitUsage.
func RenameSession(ctx context.Context, store *runner.StateView, id, name string, stdout, stderr io.Writer) int {
	if _, err := runner.CleanSessionName(name); err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return ExitUsage
	}
	saved, err := store.RenameSession(ctx, id, name)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		if errors.Is(err, runner.ErrNoSavedSession) {
			return ExitUsage
		}
		return storeFailure(err)
	}
	if saved == "" {
		fmt.Fprintf(stdout, "Session %s has no name now.\n", id)
		return ExitOK
	}
	fmt.Fprintf(stdout, "Session %s is named %q.\n", id, saved)
	return ExitOK
}
