package headless

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/steer-tui/steer/agent/runner"
)

// RewindOptions are what `steer rewind` runs with: the state directory,
// the session, the directory it was started in (the workspace of a
// --resume without --session), its flags and --json.
type RewindOptions struct {
	StateDir, Session, Dir string
	Args                   RewindArgs
	JSON                   bool
}

// rewindJSON is what --json prints: the preview, and the result unless
// --dry-run.
type rewindJSON struct {
	Preview runner.RewindPreview `json:"preview"`
	Result  *runner.RewindResult `json:"result"`
}

// Rewind is `steer rewind`: it previews the rewind and, unless --dry-run,
// carries it out at once, holding the session (no other steer runs it
// meanwhile); or, with --resume, completes an interrupted restore.
func Rewind(ctx context.Context, o RewindOptions, stdout, stderr io.Writer) int {
	view, err := runner.OpenStateView(o.StateDir, runner.StateViewOptions{})
	if err != nil {
		fmt.Fprintf(stderr, "steer: %v\n", err)
		return ExitUsage
	}
	defer view.Close()
	if o.Args.Resume != "" {
		return resumeRewind(ctx, view, o, stdout, stderr)
	}
	s, err := view.OpenRewind(ctx, o.Session)
	if err != nil {
		return rewindFailed(err, o.Session, stderr)
	}
	defer func() { _ = s.Close(context.WithoutCancel(ctx)) }()
	scope, _ := runner.ScopeOf(o.Args.Code, o.Args.Conversation) // checkRewind refused both
	p, err := s.Preview(ctx, o.Args.To, scope)
	if err != nil {
		return rewindFailed(err, o.Session, stderr)
	}
	if o.Args.DryRun {
		if o.JSON {
			return writeJSON(stdout, stderr, rewindJSON{Preview: p})
		}
		writePreview(stdout, p)
		return ExitOK
	}
	res, err := s.Rewind(ctx, p, runner.RewindOptions{SkipChanged: o.Args.SkipChanged})
	if err != nil {
		if !o.JSON {
			writePreview(stdout, p)
		}
		return rewindFailed(err, o.Session, stderr)
	}
	if o.JSON {
		return writeJSON(stdout, stderr, rewindJSON{Preview: p, Result: &res})
	}
	writePreview(stdout, p)
	writeResult(stdout, p, res)
	return ExitOK
}

// rewindFailed reports err: a bad turn or an unknown session is the
// caller's mistake (ExitUsage), anything else a failure.
func rewindFailed(err error, session string, stderr io.Writer) int {
	var turn *runner.TurnError
	switch {
	case errors.As(err, &turn):
		fmt.Fprintf(stderr, "steer: %v ('steer sessions show %s' lists the turns)\n", err, session)
		return ExitUsage
	case errors.Is(err, runner.ErrNoSavedSession):
		fmt.Fprintf(stderr, "steer: no saved session %q; 'steer sessions' lists them\n", session)
		return ExitUsage
	}
	fmt.Fprintf(stderr, "steer: %v\n", err)
	return storeFailure(err)
}

// writePreview prints what the rewind does.
func writePreview(w io.Writer, p runner.RewindPreview) {
	fmt.Fprintf(w, "Rewind %s to before turn %d (entry %s): %s\n", scopeWords(p.Scope), p.Turn.Index, p.Turn.ID, p.Turn.Prompt)
	if p.Scope != runner.RewindConversation {
		if len(p.Files) == 0 {
			fmt.Fprintln(w, "  no file changes")
		}
		for _, f := range p.Files {
			note := ""
			if f.ChangedOutside {
				note = "  (changed outside steer)"
			}
			fmt.Fprintf(w, "  %-6s %s %s%s\n", f.Change, f.Path, lines(f), note)
		}
		for _, l := range p.LeftOut {
			fmt.Fprintf(w, "  left out (%s): %s\n", l.Why, l.Path)
		}
	}
	if p.Scope != runner.RewindCode {
		fmt.Fprintf(w, "  %d %s leave the conversation's branch (they stay in its tree)\n", p.LaterTurns, plural(p.LaterTurns, "turn", "turns"))
	}
}

// writeResult prints what the rewind did.
func writeResult(w io.Writer, p runner.RewindPreview, res runner.RewindResult) {
	var parts []string
	if p.Scope != runner.RewindConversation {
		parts = append(parts, fmt.Sprintf("restored %d %s", len(res.Restored), plural(len(res.Restored), "file", "files")))
		if len(res.Skipped) > 0 {
			parts = append(parts, "left alone "+strings.Join(res.Skipped, ", "))
		}
	}
	if res.Conversation {
		parts = append(parts, "the conversation is back before turn "+fmt.Sprint(p.Turn.Index))
	}
	fmt.Fprintf(w, "Rewound: %s (entry %s).\n", strings.Join(parts, "; "), res.Entry)
}

func scopeWords(s runner.RewindScope) string {
	switch s {
	case runner.RewindCode:
		return "the code"
	case runner.RewindConversation:
		return "the conversation"
	}
	return "the code and the conversation"
}

func lines(f runner.FileChange) string {
	if f.Added < 0 {
		return "(binary)"
	}
	return fmt.Sprintf("+%d -%d", f.Added, f.Removed)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// resumeRewind finishes or rolls back the interrupted restore of the
// session's workspace (without --session, of the directory steer started
// in).
func resumeRewind(ctx context.Context, view *runner.StateView, o RewindOptions, stdout, stderr io.Writer) int {
	ws := o.Dir
	if o.Session != "" {
		var err error
		if ws, err = view.WorkspaceOf(ctx, o.Session); err != nil {
			return rewindFailed(err, o.Session, stderr)
		}
	}
	in, ok, err := view.InterruptedRewind(ws)
	if err != nil {
		return rewindFailed(err, o.Session, stderr)
	}
	if !ok {
		fmt.Fprintf(stdout, "No interrupted rewind in %s: nothing to do.\n", ws)
		return ExitOK
	}
	finish := o.Args.Resume == "finish"
	if err := view.ResumeRewind(ctx, ws, finish); err != nil {
		return rewindFailed(err, in.Session, stderr)
	}
	done := map[bool]string{true: "finished", false: "rolled back"}[finish]
	fmt.Fprintf(stdout, "The interrupted rewind of session %s (%d files) is %s.\n", in.Session, in.Files, done)
	return ExitOK
}
