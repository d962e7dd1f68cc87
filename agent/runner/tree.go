package runner

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/contextguard"
	"github.com/steer-tui/steer/persistence"
)

// The session's tree (/tree, rpc get_tree and navigate_tree): every branch
// kept, the leaf moved back to go another way, entries labelled, and new
// sessions forked from a point of it (/fork, /clone).

// SessionTree is a session's whole tree: every entry of every branch, a
// parent before its children, and the id of the leaf ("" when empty).
type SessionTree struct {
	SessionID string
	Leaf      string
	Entries   []HistoryEntry
}

// MaxLabel bounds a label's length in characters.
const MaxLabel = 80

// ErrNoEntry is the answer for an entry id the session does not have.
var ErrNoEntry = errors.New("no such entry in the session")

// Tree is saved session id's tree.
func (v *StateView) Tree(ctx context.Context, id string) (SessionTree, error) {
	return loadTree(ctx, v.store, id)
}

// Tree is the current session's tree; a session not saved yet has none.
func (b *sessionBook) Tree(ctx context.Context) (SessionTree, error) {
	id, created := b.row()
	if !created || b.store == nil {
		return SessionTree{SessionID: id}, nil
	}
	if err := b.writes.flush(ctx); err != nil {
		return SessionTree{}, err
	}
	return loadTree(ctx, b.store, id)
}

func loadTree(ctx context.Context, store *persistence.Store, id string) (SessionTree, error) {
	t, err := store.LoadTree(ctx, id)
	if errors.Is(err, persistence.ErrNotFound) {
		return SessionTree{}, ErrNoSavedSession
	}
	if err != nil {
		return SessionTree{}, err
	}
	return SessionTree{SessionID: id, Leaf: entryID(t.Leaf), Entries: historyOf(t.Entries)}, nil
}

// LabelEntry labels entry id of the current session ("" removes its label).
func (b *sessionBook) LabelEntry(ctx context.Context, id, label string) error {
	seq, err := b.savedEntry(id)
	if err != nil {
		return err
	}
	label = strings.Join(strings.Fields(label), " ")
	if r := []rune(label); len(r) > MaxLabel {
		label = string(r[:MaxLabel])
	}
	_, err = b.store.AppendMarker(ctx, b.SessionID(), persistence.EntryLabel, persistence.Marker{Target: seq, Label: label})
	return treeError(err, id)
}

// savedEntry is entry id's sequence number in the current, saved session.
func (b *sessionBook) savedEntry(id string) (int, error) {
	if _, created := b.row(); !created || b.store == nil {
		return 0, errors.New("the session has no saved entries yet")
	}
	seq, err := strconv.Atoi(id)
	if err != nil || seq <= 0 {
		return 0, fmt.Errorf("%w: %q", ErrNoEntry, id)
	}
	return seq, nil
}

// treeError words the store's answer for entry id.
func treeError(err error, id string) error {
	if errors.Is(err, persistence.ErrNoEntry) {
		return fmt.Errorf("%w: %q", ErrNoEntry, id)
	}
	return err
}

// NavigateTree moves the current session's leaf to entry id: what the user
// and the model see is the path to it, and the next message starts a branch
// there. With summarize, the branch left (from where the paths part to the
// old leaf) is summarised by the session's model first, and the summary
// becomes the new leaf, so the model knows what was tried. It fails while a
// run is active (agent.ErrBusy). The session is announced again, as a
// switch announces it.
func (r *Runtime) NavigateTree(ctx context.Context, id string, summarize bool) error {
	seq, err := r.savedEntry(id)
	if err != nil {
		return err
	}
	if r.agent.State().Running {
		return agent.ErrBusy
	}
	sessionID := r.SessionID()
	summary := ""
	if summarize {
		if summary, err = r.summarizeLeft(ctx, seq); err != nil {
			return fmt.Errorf("summarise the branch left: %w", err)
		}
	}
	if _, err := r.store.SetLeaf(ctx, sessionID, seq, summary); err != nil {
		return treeError(err, id)
	}
	r.swap.Lock()
	defer r.swap.Unlock()
	r.mu.Lock()
	claim := r.session.claim
	r.mu.Unlock()
	return r.loadSession(ctx, sessionID, claim)
}

// summarizeLeft summarises the entries of the current path after the point
// where it meets the path to seq: the branch the user leaves.
func (r *Runtime) summarizeLeft(ctx context.Context, seq int) (string, error) {
	t, err := r.Tree(ctx)
	if err != nil {
		return "", err
	}
	byID := make(map[string]HistoryEntry, len(t.Entries))
	for _, e := range t.Entries {
		byID[e.ID] = e
	}
	target := map[string]bool{}
	for id := strconv.Itoa(seq); id != ""; id = byID[id].ParentID {
		target[id] = true
	}
	var left []agent.Message
	for id := t.Leaf; id != "" && !target[id]; id = byID[id].ParentID {
		if m, ok := byID[id].InContext(); ok {
			left = append([]agent.Message{m}, left...)
		}
	}
	m := r.agent.State().Model
	return contextguard.SummarizeBranch(ctx, left, contextguard.BranchOptions{
		Summarize: r.keeper.summarizer(m), Window: r.keeper.summaryWindow(m)})
}

// Fork starts a new session whose history is the path before user message
// id of the current session, and makes it current; it answers with that
// message's text, for the editor. The new session remembers where it came
// from. It fails while a run is active.
func (b *sessionBook) Fork(ctx context.Context, id string) (string, error) {
	t, err := b.Tree(ctx)
	if err != nil {
		return "", err
	}
	for _, e := range t.Entries {
		if e.ID != id {
			continue
		}
		if e.Kind != HistoryMessage || e.Message.Role != agent.RoleUser {
			return "", fmt.Errorf("entry %s is not a user message: a fork starts again from one", id)
		}
		parent, _ := strconv.Atoi(e.ParentID)
		return e.Message.Typed(), b.forkAt(ctx, parent)
	}
	return "", fmt.Errorf("%w: %q", ErrNoEntry, id)
}

// Clone starts a new session holding the current session's whole path, and
// makes it current.
func (b *sessionBook) Clone(ctx context.Context) error {
	t, err := b.Tree(ctx)
	if err != nil {
		return err
	}
	if t.Leaf == "" {
		return errors.New("the session has nothing to clone yet")
	}
	leaf, _ := strconv.Atoi(t.Leaf)
	return b.forkAt(ctx, leaf)
}

// forkAt creates the fork of the current session at entry seq and loads it.
func (b *sessionBook) forkAt(ctx context.Context, seq int) error {
	b.swap.Lock()
	defer b.swap.Unlock()
	if b.agent.State().Running {
		return agent.ErrBusy
	}
	from := b.SessionID()
	sess, err := b.store.Session(ctx, from)
	if err != nil {
		return err
	}
	to := newSessionID()
	if err := b.store.ForkSession(ctx, from, seq, persistence.Session{ID: to, Workspace: sess.Workspace,
		Title: sess.Title, Model: sess.Model}); err != nil {
		return treeError(err, strconv.Itoa(seq))
	}
	return b.loadSession(ctx, to, nil)
}
