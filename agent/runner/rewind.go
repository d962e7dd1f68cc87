package runner

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/persistence"
	"github.com/steer-tui/steer/persistence/checkpoint"
)

// Rewind (issue 32): the session's turns with the files each changed, the
// preview of going back to before one, and the rewind itself — the code
// from the turn's checkpoint, the conversation by moving the leaf to before
// the turn's user message, or both — recorded as a rewind entry. A restore
// is itself a checkpoint, so Redo undoes the last rewind. The TUI and the
// rpc reach it through Runtime (rewind_runtime.go), `steer rewind` through
// StateView (rewind_view.go); both use rewinder.

// FileChange is one file a turn changed or a rewind changes.
type FileChange struct {
	Path string `json:"path"`
	// Change is "create", "delete" or "modify": what the turn did to the
	// file, or what the rewind does to it.
	Change string `json:"change"`
	// Added and Removed are lines; -1 for a binary file.
	Added   int `json:"added"`
	Removed int `json:"removed"`
	// ChangedOutside says the file changed outside steer since steer last
	// left the workspace (a preview's; the user confirms or skips it).
	ChangedOutside bool `json:"changedOutside,omitempty"`
}

// The changes of a FileChange.
const (
	ChangeCreate = "create"
	ChangeDelete = "delete"
	ChangeModify = "modify"
)

// RewindTurn is one turn of the session's current branch.
type RewindTurn struct {
	// Index is the turn's place among the branch's turns, 1 the first;
	// ID is its user message's entry id. Either names it to a rewind.
	Index int    `json:"index"`
	ID    string `json:"id"`
	// Prompt is the first line of its user message.
	Prompt string `json:"prompt"`
	// Checkpoint says steer snapshotted the workspace before the turn's
	// first mutating tool; Files are what the turn changed then.
	Checkpoint bool         `json:"checkpoint"`
	Files      []FileChange `json:"files"`
}

// LeftOutFile is a file the checkpoint does not hold, and why (ignored,
// over the size cap): a rewind never touches it.
type LeftOutFile struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

// RewindPreview is what a rewind to before Turn would do.
type RewindPreview struct {
	Session string      `json:"session"`
	Turn    RewindTurn  `json:"turn"`
	Scope   RewindScope `json:"scope"`
	// Files are the files the code rewind changes (none for a
	// conversation rewind, or when nothing changed since the turn).
	Files []FileChange `json:"files"`
	// ChangedOutside are the Files changed outside steer since it last
	// left the workspace.
	ChangedOutside []string      `json:"changedOutside"`
	LeftOut        []LeftOutFile `json:"leftOut"`
	// LaterTurns are the turns, this one included, that a conversation
	// rewind takes off the branch (they stay in the tree).
	LaterTurns int `json:"laterTurns"`

	seq  int
	plan *checkpoint.Plan
}

// RewindOptions tune a rewind; the zero value restores every file.
type RewindOptions struct {
	// SkipChanged leaves alone the files changed outside steer.
	SkipChanged bool
}

// RewindResult is what a rewind (or a redo) did.
type RewindResult struct {
	Restored []string `json:"restored"`
	Skipped  []string `json:"skipped"`
	// Conversation says the branch moved.
	Conversation bool `json:"conversation"`
	// Entry is the id of the rewind entry that records it.
	Entry string `json:"entry"`
}

// errNoCheckpoints refuses a code rewind where steer takes no checkpoints.
var errNoCheckpoints = errors.New("the workspace has no checkpoints (they need git on PATH and a saved session): only the conversation can be rewound")

// ErrNothingToRedo is Redo's answer when the last rewind is redone already,
// or there is none.
var ErrNothingToRedo = errors.New("nothing to redo: the session has no rewind to undo")

// rewinder rewinds one saved session. The caller holds the session (its
// claim, and no run on it) for as long as it uses it.
type rewinder struct {
	store   *persistence.Store
	shadow  *checkpoint.Store // nil: no checkpoints, only the conversation
	session string
}

// turns are the user messages of the session's path, oldest first.
func (w rewinder) turns(ctx context.Context) ([]turnInfo, []persistence.Entry, error) {
	history, err := w.store.LoadHistory(ctx, w.session)
	if errors.Is(err, persistence.ErrNotFound) {
		return nil, nil, ErrNoSavedSession
	}
	if err != nil {
		return nil, nil, err
	}
	var out []turnInfo
	for _, e := range history {
		if e.Kind == persistence.EntryMessage && e.Message.Role == agent.RoleUser {
			first, _, _ := strings.Cut(strings.TrimSpace(e.Message.TextContent()), "\n")
			out = append(out, turnInfo{index: len(out) + 1, seq: e.Seq, prompt: first})
		}
	}
	return out, history, nil
}

// snapshots are the session's kept checkpoints oldest first, and each
// turn's first (the state before its first mutating tool) by turn.
func (w rewinder) snapshots(ctx context.Context) ([]checkpoint.Checkpoint, map[string]checkpoint.Checkpoint, error) {
	if w.shadow == nil {
		return nil, nil, nil
	}
	list, err := w.shadow.List(ctx, w.session)
	if err != nil {
		return nil, nil, err
	}
	byTurn := map[string]checkpoint.Checkpoint{}
	old := make([]checkpoint.Checkpoint, len(list))
	for i, c := range list { // newest first: the oldest of a turn is written last
		old[len(list)-1-i] = c
		if c.Kind == checkpoint.KindTurn {
			byTurn[c.Turn] = c
		}
	}
	return old, byTurn, nil
}

// Turns is the branch's turns newest first, each with what it changed:
// from its checkpoint to the next snapshot (or to the state steer left).
func (w rewinder) Turns(ctx context.Context) ([]RewindTurn, error) {
	turns, _, err := w.turns(ctx)
	if err != nil {
		return nil, err
	}
	all, byTurn, err := w.snapshots(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]RewindTurn, 0, len(turns))
	for i := len(turns) - 1; i >= 0; i-- {
		t := turns[i]
		rt := RewindTurn{Index: t.index, ID: entryID(t.seq), Prompt: t.prompt, Files: []FileChange{}}
		if c, ok := byTurn[strconv.Itoa(t.seq)]; ok {
			rt.Checkpoint = true
			if rt.Files, err = w.changedBy(ctx, c, all); err != nil {
				return nil, err
			}
		}
		out = append(out, rt)
	}
	return out, nil
}

// changedBy is what changed from checkpoint c to the snapshot after it.
func (w rewinder) changedBy(ctx context.Context, c checkpoint.Checkpoint, all []checkpoint.Checkpoint) ([]FileChange, error) {
	next := ""
	for _, o := range all {
		if o.Created.After(c.Created) {
			next = o.ID
			break
		}
	}
	if next == "" {
		last, err := w.shadow.Last(ctx, w.session)
		if errors.Is(err, checkpoint.ErrNoLast) {
			return []FileChange{}, nil
		}
		if err != nil {
			return nil, err
		}
		next = last
	}
	changes, err := w.shadow.Diff(ctx, w.session, c.ID, next)
	return fileChanges(changes), err
}

func fileChanges(changes []checkpoint.Change) []FileChange {
	out := make([]FileChange, 0, len(changes))
	for _, c := range changes {
		kind := ChangeModify
		switch c.Action {
		case checkpoint.ActionCreate:
			kind = ChangeCreate
		case checkpoint.ActionDelete:
			kind = ChangeDelete
		}
		out = append(out, FileChange{Path: c.Path, Change: kind, Added: c.Added, Removed: c.Removed, ChangedOutside: c.External})
	}
	return out
}

// Preview is what rewinding scope to before turn ref would do. The code
// goes back to the first checkpoint of this turn or a later one on the
// branch: a turn without one changed nothing, so the next one's holds the
// workspace as this turn found it; with none, the code has nothing to
// restore.
func (w rewinder) Preview(ctx context.Context, ref string, scope RewindScope) (RewindPreview, error) {
	if scope == "" {
		scope = RewindBoth
	}
	turns, _, err := w.turns(ctx)
	if err != nil {
		return RewindPreview{}, err
	}
	i, err := resolveTurn(turns, ref)
	if err != nil {
		return RewindPreview{}, err
	}
	t := turns[i]
	p := RewindPreview{Session: w.session, Scope: scope, Files: []FileChange{}, ChangedOutside: []string{},
		LeftOut: []LeftOutFile{}, seq: t.seq,
		Turn: RewindTurn{Index: t.index, ID: entryID(t.seq), Prompt: t.prompt, Files: []FileChange{}}}
	if scope.conversation() {
		p.LaterTurns = len(turns) - i
	}
	if !scope.code() {
		return p, nil
	}
	if w.shadow == nil {
		return RewindPreview{}, errNoCheckpoints
	}
	_, byTurn, err := w.snapshots(ctx)
	if err != nil {
		return RewindPreview{}, err
	}
	for _, later := range turns[i:] {
		c, ok := byTurn[strconv.Itoa(later.seq)]
		if !ok {
			continue
		}
		p.Turn.Checkpoint = later.seq == t.seq
		plan, err := w.shadow.Preview(ctx, c)
		if err != nil {
			return RewindPreview{}, err
		}
		p.plan = &plan
		p.Files = fileChanges(plan.Changes)
		if ext := plan.External(); ext != nil {
			p.ChangedOutside = ext
		}
		for _, l := range c.LeftOut {
			p.LeftOut = append(p.LeftOut, LeftOutFile{Path: l.Path, Why: l.Why})
		}
		break
	}
	return p, nil
}

// Rewind carries out p: the code first (the plan must still hold: a
// workspace changed since the preview is refused), then the entry that
// records it, which moves the branch for a conversation rewind.
func (w rewinder) Rewind(ctx context.Context, p RewindPreview, o RewindOptions) (RewindResult, error) {
	if p.Session != w.session || p.seq == 0 {
		return RewindResult{}, errors.New("rewind: the preview is of another session; preview again")
	}
	res := RewindResult{Restored: []string{}, Skipped: []string{}, Conversation: p.Scope.conversation()}
	if p.plan != nil {
		skip := map[string]bool{}
		if o.SkipChanged {
			for _, path := range p.ChangedOutside {
				skip[path] = true
			}
			res.Skipped = append(res.Skipped, p.ChangedOutside...)
		}
		if _, err := w.shadow.Restore(ctx, *p.plan, checkpoint.RestoreOptions{Skip: res.Skipped}); err != nil {
			return RewindResult{}, err
		}
		for _, f := range p.Files {
			if !skip[f.Path] {
				res.Restored = append(res.Restored, f.Path)
			}
		}
	}
	seq, err := w.store.AppendRewind(ctx, w.session, persistence.Marker{Target: p.seq, Scope: string(p.Scope), Files: len(res.Restored)})
	if err != nil {
		return RewindResult{}, fmt.Errorf("the files are restored, but the rewind is not recorded: %w", err)
	}
	res.Entry = entryID(seq)
	return res, nil
}

// Redo undoes the branch's latest rewind, unless it is redone already: the
// code goes back to what the rewind replaced, and the conversation to the
// leaf before it, provided nothing was said since (else /tree finds it).
func (w rewinder) Redo(ctx context.Context) (RewindResult, error) {
	_, history, err := w.turns(ctx)
	if err != nil {
		return RewindResult{}, err
	}
	var last persistence.Entry
	for i := len(history) - 1; i >= 0 && last.Seq == 0; i-- {
		if history[i].Kind == persistence.EntryRewind {
			last = history[i]
		}
	}
	if last.Seq == 0 || last.Marker.Scope == persistence.RewindRedo {
		return RewindResult{}, ErrNothingToRedo
	}
	scope := RewindScope(last.Marker.Scope)
	res := RewindResult{Restored: []string{}, Skipped: []string{}}
	if scope.conversation() {
		if history[len(history)-1].Seq != last.Seq {
			return RewindResult{}, errors.New("the conversation went on since the rewind: /tree goes back to the branch it left")
		}
		if last.Marker.Leaf == 0 {
			return RewindResult{}, errors.New("the rewind does not say where the conversation was (an imported session): /tree goes back to it")
		}
	}
	if scope.code() {
		restored, err := w.undoRestore(ctx)
		if err != nil {
			return RewindResult{}, err
		}
		res.Restored = restored
	}
	if scope.conversation() {
		if _, err := w.store.SetLeaf(ctx, w.session, last.Marker.Leaf, ""); err != nil {
			return RewindResult{}, err
		}
		res.Conversation = true
	}
	seq, err := w.store.AppendRewind(ctx, w.session, persistence.Marker{Target: last.Seq, Scope: persistence.RewindRedo, Files: len(res.Restored)})
	if err != nil {
		return RewindResult{}, err
	}
	res.Entry = entryID(seq)
	return res, nil
}

// undoRestore restores what the latest restore replaced.
func (w rewinder) undoRestore(ctx context.Context) ([]string, error) {
	if w.shadow == nil {
		return nil, errNoCheckpoints
	}
	before, err := w.shadow.Undo(ctx, w.session)
	if errors.Is(err, checkpoint.ErrNoRestore) {
		return nil, ErrNothingToRedo
	}
	if err != nil {
		return nil, err
	}
	plan, err := w.shadow.Preview(ctx, before)
	if err != nil {
		return nil, err
	}
	if _, err := w.shadow.Restore(ctx, plan, checkpoint.RestoreOptions{}); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(plan.Changes))
	for _, c := range plan.Changes {
		out = append(out, c.Path)
	}
	return out, nil
}
