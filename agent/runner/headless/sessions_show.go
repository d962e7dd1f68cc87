package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/agent/runner/export"
)

// ShowSession prints a session's whole history: with asJSON pi's message
// objects with their ids (historyJSON), else a plain rendering with each
// compaction marked where it happened and its summary.
func ShowSession(ctx context.Context, store *runner.StateView, id string, asJSON bool, stdout, stderr io.Writer) int {
	history, err := store.History(ctx, id)
	if code, ok := showFailed(err, id, stderr); ok {
		return code
	}
	if asJSON {
		return writeHistoryJSON(stdout, stderr, history)
	}
	for i, e := range history {
		if e.Kind == runner.HistoryContext {
			fresh := runner.NewInContext(history[:i], e.Context)
			fmt.Fprintf(stdout, "── compacted: from here the model sees %d messages (%d of them new) ──\n\n", len(e.Context), len(fresh))
			for _, m := range fresh {
				writeMessage(stdout, m)
			}
			continue
		}
		if e.Kind != runner.HistoryMessage {
			fmt.Fprintf(stdout, "── %s ──\n\n", markerLine(e))
			continue
		}
		writeMessage(stdout, e.Message)
	}
	return ExitOK
}

// ShowContext prints what the model sees of a session: pi's message objects
// with asJSON, else a plain rendering.
func ShowContext(ctx context.Context, store *runner.StateView, id string, asJSON bool, stdout, stderr io.Writer) int {
	msgs, err := store.Transcript(ctx, id)
	if code, ok := showFailed(err, id, stderr); ok {
		return code
	}
	if asJSON {
		return writeJSON(stdout, stderr, msgs)
	}
	for _, m := range msgs {
		writeMessage(stdout, m)
	}
	return ExitOK
}

// showFailed reports a failed read of session id, and whether there was one.
func showFailed(err error, id string, stderr io.Writer) (int, bool) {
	switch {
	case err == nil:
		return ExitOK, false
	case errors.Is(err, runner.ErrNoSavedSession):
		fmt.Fprintf(stderr, "steer: no saved session %q; 'steer sessions' lists them\n", id)
		return ExitUsage, true
	default:
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return storeFailure(err), true
	}
}

// contextEntryJSON is a compaction in the history's JSON: a "type" and no
// "role", so that a reader of pi's messages can tell it apart.
type contextEntryJSON struct {
	Type     string          `json:"type"`
	ID       string          `json:"id"`
	ParentID *string         `json:"parentId"`
	Messages []agent.Message `json:"messages"`
}

// markerEntryJSON is a marker in the JSON history: a "type", no "role".
type markerEntryJSON struct {
	Type     string  `json:"type"`
	ID       string  `json:"id"`
	ParentID *string `json:"parentId"`
	TargetID string  `json:"targetId,omitempty"`
	Label    *string `json:"label,omitempty"`
	Summary  string  `json:"summary,omitempty"`
	Model    string  `json:"model,omitempty"`
	Thinking string  `json:"thinkingLevel,omitempty"`
	Scope    string  `json:"scope,omitempty"`
	Files    int     `json:"files,omitempty"`
}

// writeHistoryJSON prints the history as a JSON list in tree order: each
// message pi's object with "id" and "parentId" added (null for the first).
func writeHistoryJSON(stdout, stderr io.Writer, history []runner.HistoryEntry) int {
	out := make([]json.RawMessage, 0, len(history))
	for _, e := range history {
		var parent *string
		if e.ParentID != "" {
			parent = &e.ParentID
		}
		if e.Kind != runner.HistoryMessage {
			var v any = contextEntryJSON{Type: string(e.Kind), ID: e.ID, ParentID: parent, Messages: e.Context}
			if e.Kind != runner.HistoryContext {
				mk := markerEntryJSON{Type: string(e.Kind), ID: e.ID, ParentID: parent, TargetID: e.Target,
					Summary: e.Summary, Model: e.Model, Thinking: e.Thinking, Scope: e.Scope, Files: e.Files}
				if e.Kind == runner.HistoryLabel {
					mk.Label = &e.Label
				}
				v = mk
			}
			b, err := json.Marshal(v)
			if err != nil {
				fmt.Fprintf(stderr, "steer: %v\n", err)
				return ExitFailed
			}
			out = append(out, b)
			continue
		}
		msg, err := e.Message.MarshalJSON()
		if err != nil {
			fmt.Fprintf(stderr, "steer: %v\n", err)
			return ExitFailed
		}
		ids, _ := json.Marshal(struct { // strings and a pointer: cannot fail
			ID       string  `json:"id"`
			ParentID *string `json:"parentId"`
		}{e.ID, parent})
		// {"id":…,"parentId":…} and {message…} joined into one object.
		joined := append(bytes.TrimSuffix(ids, []byte("}")), ',')
		out = append(out, append(joined, bytes.TrimPrefix(msg, []byte("{"))...))
	}
	return writeJSON(stdout, stderr, out)
}

// markerLine words a marker entry for `sessions show`.
func markerLine(e runner.HistoryEntry) string {
	switch e.Kind {
	case runner.HistoryLabel:
		if e.Label == "" {
			return "label removed from entry " + e.Target
		}
		return fmt.Sprintf("entry %s labelled %q", e.Target, e.Label)
	case runner.HistoryBranchSummary:
		return "back from another branch; its summary: " + e.Summary
	case runner.HistoryModelChange:
		return "model: " + e.Model
	case runner.HistoryThinkingChange:
		return "thinking: " + e.Thinking
	case runner.HistoryApprovalChange:
		return "tool approval: " + e.Approval
	case runner.HistoryRewind:
		return export.RewindLine(e.Scope, e.Target, e.Files)
	}
	return string(e.Kind)
}
