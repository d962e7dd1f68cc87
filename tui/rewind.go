package tui

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/steer-tui/steer/agent/runner"
	"github.com/steer-tui/steer/tui/dialog"
	"github.com/steer-tui/steer/tui/msgs"
)

// /rewind takes the session back to before one of its turns: the turns,
// newest first, each with the files it changed; then what to take back
// (code and conversation, code, conversation, or the later turns summed
// up); before code is restored, the files that will change, those changed
// outside steer since named, to restore or to skip. /redo undoes the last
// rewind. A restore steer died in is offered at start-up to finish or to
// roll back. The runner refuses all of it while a run is active.

// Rewinder is the rewind facade. The methods may do IO: they are called
// from tea.Cmd goroutines.
type Rewinder interface {
	RewindTurns(ctx context.Context) ([]runner.RewindTurn, error)
	PreviewRewind(ctx context.Context, turn string, scope runner.RewindScope) (runner.RewindPreview, error)
	Rewind(ctx context.Context, p runner.RewindPreview, o runner.RewindOptions) (runner.RewindResult, error)
	Redo(ctx context.Context) (runner.RewindResult, error)
	InterruptedRewind() (runner.InterruptedRewind, bool, error)
	ResumeRewind(ctx context.Context, finish bool) error
}

// rewindMsg is the sealed set of the rewind's messages.
type rewindMsg interface{ rewindMsg() }

type (
	openRewindMsg struct{}
	redoMsg       struct{}
	// rewindTurnsMsg lists the turns for the picker.
	rewindTurnsMsg struct {
		turns []runner.RewindTurn
		err   error
	}
	// rewindTurnMsg is a turn chosen: what to take back is asked next.
	rewindTurnMsg struct{ turn runner.RewindTurn }
	// rewindScopeMsg asks for the preview of turn in scope.
	rewindScopeMsg struct {
		turn  runner.RewindTurn
		scope runner.RewindScope
	}
	// rewindSummarizeMsg sums the turns from turn on up.
	rewindSummarizeMsg struct{ turn runner.RewindTurn }
	rewindPreviewMsg   struct {
		p   runner.RewindPreview
		err error
	}
	// rewindGoMsg restores p.
	rewindGoMsg struct {
		p    runner.RewindPreview
		skip bool
	}
	rewoundMsg struct {
		what string
		res  runner.RewindResult
		err  error
	}
	// interruptedRewindMsg is a restore steer died in, found at start-up.
	interruptedRewindMsg struct{ in runner.InterruptedRewind }
	resumeRewindMsg      struct{ finish bool }
	resumedRewindMsg     struct {
		finish bool
		err    error
	}
)

func (openRewindMsg) rewindMsg()        {}
func (redoMsg) rewindMsg()              {}
func (rewindTurnsMsg) rewindMsg()       {}
func (rewindTurnMsg) rewindMsg()        {}
func (rewindScopeMsg) rewindMsg()       {}
func (rewindSummarizeMsg) rewindMsg()   {}
func (rewindPreviewMsg) rewindMsg()     {}
func (rewindGoMsg) rewindMsg()          {}
func (rewoundMsg) rewindMsg()           {}
func (interruptedRewindMsg) rewindMsg() {}
func (resumeRewindMsg) rewindMsg()      {}
func (resumedRewindMsg) rewindMsg()     {}

// routeRewind handles the rewind's messages.
func (m Model) routeRewind(msg rewindMsg) (Model, tea.Cmd) {
	rt := m.rt
	switch msg := msg.(type) {
	case openRewindMsg:
		return m, func() tea.Msg {
			turns, err := rt.RewindTurns(context.Background())
			return rewindTurnsMsg{turns: turns, err: err}
		}
	case rewindTurnsMsg:
		return m.openRewindPicker(msg)
	case rewindTurnMsg:
		return m.askRewindScope(msg.turn), nil
	case rewindScopeMsg:
		return m, func() tea.Msg {
			p, err := rt.PreviewRewind(context.Background(), msg.turn.ID, msg.scope)
			return rewindPreviewMsg{p: p, err: err}
		}
	case rewindPreviewMsg:
		if msg.err != nil {
			return m.updateStatus(msgs.ErrorMsg{Action: "preview the rewind", Err: msg.err})
		}
		return m.confirmRewind(msg.p), nil
	case rewindGoMsg:
		return m.requestSession(func() tea.Msg {
			res, err := rt.Rewind(context.Background(), msg.p, runner.RewindOptions{SkipChanged: msg.skip})
			return rewoundMsg{what: "rewind", res: res, err: err}
		}), nil
	case rewindSummarizeMsg:
		return m.summarizeFrom(msg.turn)
	case redoMsg:
		return m.requestSession(func() tea.Msg {
			res, err := rt.Redo(context.Background())
			return rewoundMsg{what: "redo", res: res, err: err}
		}), nil
	case rewoundMsg:
		if msg.err != nil {
			return m.updateStatus(msgs.ErrorMsg{Action: msg.what, Err: msg.err})
		}
		// A hint, not a transcript note: the session is announced again
		// after a rewind, and that replaces the transcript.
		return m.hint(rewoundNote(msg.what, msg.res))
	case interruptedRewindMsg:
		return m.askResumeRewind(msg.in), nil
	case resumeRewindMsg:
		return m, func() tea.Msg {
			return resumedRewindMsg{finish: msg.finish, err: rt.ResumeRewind(context.Background(), msg.finish)}
		}
	case resumedRewindMsg:
		what := "roll back the cut-off restore"
		if msg.finish {
			what = "finish the cut-off restore"
		}
		if msg.err != nil {
			return m.updateStatus(msgs.ErrorMsg{Action: what, Err: msg.err})
		}
		return m.hint("done: " + what)
	}
	return m, nil
}

// openRewindPicker lists the turns, newest first, with what each changed.
func (m Model) openRewindPicker(msg rewindTurnsMsg) (Model, tea.Cmd) {
	if msg.err != nil {
		return m.updateStatus(msgs.ErrorMsg{Action: "list the turns", Err: msg.err})
	}
	if len(msg.turns) == 0 {
		return m.hint("nothing to rewind: the session has no message of yours")
	}
	items := make([]dialog.Item, len(msg.turns))
	for i, t := range msg.turns {
		items[i] = dialog.Item{Label: fmt.Sprintf("%d. %s", t.Index, oneLine(t.Prompt, promptWidth)), Detail: turnChanges(t), Msg: rewindTurnMsg{turn: t}}
	}
	return m.openDialog(dialog.NewPicker(m.dialogDeps(), "Rewind to before which turn?", items, 0)), nil
}

// turnChanges says what a turn changed in the workspace.
func turnChanges(t runner.RewindTurn) string {
	if !t.Checkpoint {
		return "no checkpoint: it changed no file (the conversation can still go back)"
	}
	if len(t.Files) == 0 {
		return "no file changed"
	}
	added, removed := 0, 0
	names := make([]string, 0, len(t.Files))
	for _, f := range t.Files {
		added, removed = added+f.Added, removed+f.Removed
		names = append(names, f.Path)
	}
	return fmt.Sprintf("+%d −%d in %s", added, removed, strings.Join(names, ", "))
}

// askRewindScope asks what to take back to before turn.
func (m Model) askRewindScope(t runner.RewindTurn) Model {
	items := []dialog.Item{
		{Label: "Code and conversation", Shortcut: "b", Msg: rewindScopeMsg{turn: t, scope: runner.RewindBoth}},
		{Label: "Code only", Shortcut: "c", Msg: rewindScopeMsg{turn: t, scope: runner.RewindCode}},
		{Label: "Conversation only", Shortcut: "v", Msg: rewindScopeMsg{turn: t, scope: runner.RewindConversation}},
		{Label: "Summarize from here (the turns from this one become one summary)", Shortcut: "s", Msg: rewindSummarizeMsg{turn: t}},
	}
	text := fmt.Sprintf("Turn %d: %s\n%s", t.Index, oneLine(t.Prompt, promptWidth), turnChanges(t))
	return m.openDialog(dialog.NewQuestion(m.dialogDeps(), "Rewind: what goes back?", text, items, nil))
}

// confirmRewind shows the preview: the files that will change, those
// changed outside steer, those left out; restore, skip the changed, or
// cancel.
func (m Model) confirmRewind(p runner.RewindPreview) Model {
	var b strings.Builder
	if p.Scope != runner.RewindConversation {
		if len(p.Files) == 0 {
			b.WriteString("No file changes.\n")
		}
		for _, f := range p.Files {
			mark := ""
			if f.ChangedOutside {
				mark = "  ← changed outside steer since"
			}
			fmt.Fprintf(&b, "  %-6s %s +%d −%d%s\n", f.Change, f.Path, f.Added, f.Removed, mark)
		}
		for _, l := range p.LeftOut {
			fmt.Fprintf(&b, "  left as it is: %s (%s)\n", l.Path, l.Why)
		}
	}
	if p.Scope != runner.RewindCode {
		fmt.Fprintf(&b, "The conversation goes back to before turn %d (%d later turns leave the path; /tree still has them).\n", p.Turn.Index, p.LaterTurns)
	}
	b.WriteString("A rewind is itself a checkpoint: /redo undoes it.")
	items := []dialog.Item{{Label: "Rewind", Shortcut: "r", Msg: rewindGoMsg{p: p}}}
	if len(p.ChangedOutside) > 0 {
		items = append(items, dialog.Item{Label: fmt.Sprintf("Rewind, leaving the %d files changed outside steer", len(p.ChangedOutside)),
			Shortcut: "s", Msg: rewindGoMsg{p: p, skip: true}})
	}
	items = append(items, dialog.Item{Label: "Cancel", Shortcut: "n", Msg: nil})
	return m.openDialog(dialog.NewQuestion(m.dialogDeps(), "Rewind to before turn "+fmt.Sprint(p.Turn.Index)+"?", b.String(), items, nil))
}

// summarizeFrom moves the leaf to before turn, the turns from it on summed
// up by the model into one entry (as /tree's summary does).
func (m Model) summarizeFrom(t runner.RewindTurn) (Model, tea.Cmd) {
	rt := m.rt
	return m.requestSession(func() tea.Msg {
		ctx := context.Background()
		tree, err := rt.Tree(ctx)
		if err != nil {
			return rewoundMsg{what: "summarize", err: err}
		}
		parent := ""
		for _, e := range tree.Entries {
			if e.ID == t.ID {
				parent = e.ParentID
			}
		}
		if parent == "" {
			return msgs.HintMsg{Text: "turn 1 has nothing before it to keep: rewind the conversation instead"}
		}
		if err := rt.NavigateTree(ctx, parent, true); err != nil {
			return rewoundMsg{what: "summarize", err: err}
		}
		return msgs.HintMsg{Text: fmt.Sprintf("the turns from %d on are summed up in one entry; /tree still has them", t.Index)}
	}), nil
}

// rewoundNote says what a rewind or a redo did.
func rewoundNote(what string, r runner.RewindResult) string {
	var parts []string
	if n := len(r.Restored); n > 0 {
		parts = append(parts, plural(n, "file")+" restored")
	}
	if n := len(r.Skipped); n > 0 {
		parts = append(parts, fmt.Sprintf("%s changed outside steer left as they are (%s)", plural(n, "file"), strings.Join(r.Skipped, ", ")))
	}
	if r.Conversation {
		parts = append(parts, "the conversation went back")
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing to change")
	}
	tail := " · /redo undoes it"
	if what == "redo" {
		tail = ""
	}
	return what + ": " + strings.Join(parts, "; ") + tail
}

// readInterruptedRewind looks at start-up for a restore steer died in.
func readInterruptedRewind(rt Rewinder) tea.Cmd {
	return func() tea.Msg {
		in, ok, err := rt.InterruptedRewind()
		if err != nil || !ok {
			return nil
		}
		return interruptedRewindMsg{in: in}
	}
}

// askResumeRewind asks whether to finish or roll back a restore steer
// died in; until one is done, tools that change files are refused.
func (m Model) askResumeRewind(in runner.InterruptedRewind) Model {
	text := fmt.Sprintf("steer stopped in the middle of restoring %d files of session %s: the workspace may be half restored, and tools that change files are refused until this is settled.", in.Files, in.Session)
	items := []dialog.Item{
		{Label: "Finish the restore", Shortcut: "f", Msg: resumeRewindMsg{finish: true}},
		{Label: "Roll it back", Shortcut: "r", Msg: resumeRewindMsg{finish: false}},
	}
	return m.openDialog(dialog.NewQuestion(m.dialogDeps(), "A restore was cut off", text, items, nil))
}

// promptWidth bounds a turn's prompt in the rewind's lists.
const promptWidth = 70
