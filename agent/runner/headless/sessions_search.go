package headless

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"strings"

	"github.com/steer-tui/steer/agent/runner"
)

// SearchSessions prints the saved sessions whose messages or titles match
// query, best first, as a table or JSON.
func SearchSessions(ctx context.Context, store *runner.StateView, query string, asJSON bool, stdout, stderr io.Writer) int {
	hits, err := store.Search(ctx, query)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return storeFailure(err)
	}
	if asJSON {
		return writeJSON(stdout, stderr, hits)
	}
	if len(hits) == 0 {
		fmt.Fprintf(stdout, "No saved session matches %q.\n", query)
		return ExitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUPDATED\tWORKSPACE\tTITLE\tMATCH")
	for _, h := range hits {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", h.SessionID, h.Updated.Local().Format("2006-01-02 15:04"), h.Workspace,
			oneLine(h.Title), oneLine(h.Snippet))
	}
	tw.Flush()
	return ExitOK
}

// oneLine is s for one table cell: control characters (line breaks, the
// escape that starts a terminal sequence) become spaces.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return ' '
		}
		return r
	}, s)
}
