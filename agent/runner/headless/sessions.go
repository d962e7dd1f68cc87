package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
)

// ListSessions prints every saved session, newest first, as a table or JSON.
func ListSessions(ctx context.Context, store *runner.StateView, asJSON bool, stdout, stderr io.Writer) int {
	sessions, err := store.Sessions(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return storeFailure(err)
	}
	if asJSON {
		return writeJSON(stdout, stderr, sessions)
	}
	if len(sessions) == 0 {
		fmt.Fprintln(stdout, "No saved sessions yet.")
		return ExitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tPARENT\tUPDATED\tMESSAGES\tMODEL\tOPEN IN\tWORKSPACE\tTITLE")
	for _, s := range sessions {
		open := "-"
		if s.OpenIn != nil {
			open = fmt.Sprintf("pid %d", s.OpenIn.PID)
		}
		parent := "-"
		if s.ParentID != "" {
			parent = s.ParentID
		}
		title := s.Title
		if s.Name != "" {
			title = s.Name
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", s.ID, parent, s.Updated.Local().Format("2006-01-02 15:04"),
			s.MessageCount, s.Model, open, s.Workspace, oneLine(title))
	}
	tw.Flush()
	return ExitOK
}

func writeMessage(w io.Writer, m agent.Message) {
	if m.Role == agent.RoleToolResult {
		status := ""
		if m.IsError {
			status = ", error"
		}
		fmt.Fprintf(w, "[%s result%s]\n%s\n\n", m.ToolName, status, m.TextContent())
		return
	}
	fmt.Fprintf(w, "%s:\n%s\n", m.Role, m.TextContent())
	for _, c := range m.ToolCalls() {
		args, _ := json.Marshal(c.Arguments)
		fmt.Fprintf(w, "→ %s %s\n", c.Name, args)
	}
	if m.StopReason == agent.StopReasonError || m.StopReason == agent.StopReasonAborted {
		fmt.Fprintf(w, "(%s: %s)\n", m.StopReason, m.ErrorMessage)
	}
	fmt.Fprintln(w)
}

func writeJSON(stdout, stderr io.Writer, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return ExitFailed
	}
	return ExitOK
}

// storeFailure is the exit status of a failed read of the store: a database
// found corrupt only once read (a garbage page behind a sound header) exits
// as Open's refusal of a corrupt file does, ExitUsage, since the user has to
// move the file aside; any other failure is ExitFailed.
func storeFailure(err error) int {
	if runner.IsCorrupt(err) {
		return ExitUsage
	}
	return ExitFailed
}
