package headless

import (
	"context"
	"fmt"
	"io"

	"github.com/steer-tui/steer/agent/runner"
)

// ExportSession writes session id (every branch of its tree, and its
// queue) to stdout as format (html, the default, md or jsonl), every secret
// redacted: the values in secrets and the token shapes export knows.
// stderr says how many it replaced.
func ExportSession(ctx context.Context, store *runner.StateView, id, format string, secrets []string, stdout, stderr io.Writer) int {
	s, err := store.Export(ctx, id)
	if code, ok := showFailed(err, id, stderr); ok {
		return code
	}
	n, err := runner.WriteExport(stdout, s, format, secrets)
	if err != nil {
		fmt.Fprintf(stderr, "steer: export session %s: %v\n", id, err)
		return ExitFailed
	}
	fmt.Fprintf(stderr, "steer: exported session %s (%d entries); %d secrets redacted\n", id, len(s.Entries), n)
	return ExitOK
}
