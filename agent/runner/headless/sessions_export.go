package headless

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/export"
)

// ExportSession writes session id's history to stdout as format (html, the
// default, md or jsonl), every secret redacted: the values in secrets and
// the token shapes export knows. stderr says how many it replaced.
func ExportSession(ctx context.Context, store *runner.StateView, id, format string, secrets []string, stdout, stderr io.Writer) int {
	history, err := store.History(ctx, id)
	if code, ok := showFailed(err, id, stderr); ok {
		return code
	}
	listed, err := store.Sessions(ctx)
	if code, ok := showFailed(err, id, stderr); ok {
		return code
	}
	s := exportSession(history)
	for _, l := range listed {
		if l.ID == id {
			s.ID, s.Title, s.Name, s.Workspace, s.Model, s.Created = l.ID, l.Title, l.Name, l.Workspace, l.Model, l.Created
		}
	}
	write := export.HTML
	switch format {
	case "md":
		write = export.Markdown
	case "jsonl":
		write = export.JSONL
	}
	r := export.NewRedactor(secrets...)
	if err := write(stdout, s, r); err != nil {
		fmt.Fprintf(stderr, "steer: export session %s: %v\n", id, err)
		return ExitFailed
	}
	fmt.Fprintf(stderr, "steer: exported session %s (%d entries); %d secrets redacted\n", id, len(s.Entries), r.Count())
	return ExitOK
}

// exportSession is a history in export's terms: a compaction's summary is
// what its context holds that the history before it does not, and its
// Context the exact messages the model sees from it on.
func exportSession(history []runner.HistoryEntry) export.Session {
	s := export.Session{Entries: make([]export.Entry, len(history))}
	for i, e := range history {
		x := export.Entry{ID: e.ID, ParentID: e.ParentID, Type: export.TypeMessage, Time: e.Created}
		if e.Kind == runner.HistoryContext {
			x.Type = export.TypeCompaction
			x.Summary = summaryText(runner.NewInContext(history[:i], e.Context))
			x.Context = e.Context
		} else {
			msg := e.Message
			x.Message = &msg
		}
		s.Entries[i] = x
		s.Leaf = e.ID
	}
	return s
}

// summaryText is the text of a compaction's new messages.
func summaryText(msgs []agent.Message) string {
	parts := make([]string, 0, len(msgs))
	for _, m := range msgs {
		parts = append(parts, m.TextContent())
	}
	return strings.Join(parts, "\n\n")
}
