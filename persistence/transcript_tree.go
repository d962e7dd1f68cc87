package persistence

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/steer-tui/steer/agent"
)

// EntryKind says what a transcript entry holds.
type EntryKind string

const (
	// EntryMessage holds one message of the conversation.
	EntryMessage EntryKind = "message"
	// EntryContext holds the messages the model sees from it on instead of
	// the entries before it (a compaction's summary and what it kept, or a
	// truncated transcript); those entries stay in the history.
	EntryContext EntryKind = "context"
)

// Entry is one entry of a session's transcript tree. Entries are never
// changed or deleted: compactions and truncations append context entries.
type Entry struct {
	// Seq identifies the entry within its session; Parent is its parent's
	// Seq, 0 for the root.
	Seq, Parent int
	Kind        EntryKind
	// Message is an EntryMessage's message.
	Message agent.Message
	// Context is an EntryContext's messages.
	Context []agent.Message
	// Marker is what a marker entry (a label, a branch summary, a change of
	// model or thinking level) says.
	Marker  Marker
	Created time.Time
}

// node is an entry without its content: enough to walk the tree.
type node struct {
	parent int
	kind   EntryKind
	role   agent.Role
}

// LoadHistory returns every entry of the session's path root → leaf, the
// history a user sees (context entries mark compactions), or an error
// wrapping ErrNotFound when the session does not exist.
func (s *Store) LoadHistory(ctx context.Context, sessionID string) ([]Entry, error) {
	var out []Entry
	err := s.readPath(ctx, sessionID, func([]int, map[int]node) int { return 0 },
		func(entries []Entry) { out = entries })
	if err != nil {
		return nil, s.classify(fmt.Errorf("load history of session %s: %w", sessionID, err))
	}
	return out, nil
}

// loadContext returns what the model sees of the session (LoadTranscript)
// and the leaf it was read at.
func (s *Store) loadContext(ctx context.Context, sessionID string) ([]agent.Message, int, error) {
	return s.loadFrom(ctx, sessionID, lastContext)
}

// loadFrom returns what the model sees of the path from the index from
// gives on (its first entry's context when it is a context entry), and
// the leaf it was read at.
func (s *Store) loadFrom(ctx context.Context, sessionID string, from func([]int, map[int]node) int) ([]agent.Message, int, error) {
	var msgs []agent.Message
	leaf := 0
	err := s.readPath(ctx, sessionID, from, func(entries []Entry) {
		for i, e := range entries {
			switch {
			case i == 0 && e.Kind == EntryContext:
				msgs = append(msgs, e.Context...)
			case e.Kind == EntryBranchSummary:
				msgs = append(msgs, BranchSummaryMessage(e))
			case e.Kind == EntryMessage:
				msgs = append(msgs, e.Message)
			}
		}
		if len(entries) > 0 {
			leaf = entries[len(entries)-1].Seq
		}
	})
	if err != nil {
		return nil, 0, s.classify(fmt.Errorf("load transcript of session %s: %w", sessionID, err))
	}
	return msgs, leaf, nil
}

// lastContext is the index in path of its latest context entry, 0 when it
// has none: where the model's context begins.
func lastContext(path []int, nodes map[int]node) int {
	for i := len(path) - 1; i >= 0; i-- {
		if nodes[path[i]].kind == EntryContext {
			return i
		}
	}
	return 0
}

// lastTurn is the index in path of the last entry that is neither a tool
// result nor a marker (or the latest context entry, if that comes later):
// the end of the transcript that a repair looks at, read without decoding
// all of it.
func lastTurn(path []int, nodes map[int]node) int {
	for i := len(path) - 1; i >= 0; i-- {
		n := nodes[path[i]]
		if n.kind.IsMarker() || n.kind == EntryMessage && n.role == agent.RoleToolResult {
			continue
		}
		return i
	}
	return 0
}

// readPath reads, in one snapshot, the session's path root → leaf from the
// index from(path) on, and hands its entries, decoded, to got.
func (s *Store) readPath(ctx context.Context, sessionID string, from func([]int, map[int]node) int, got func([]Entry)) error {
	tx, err := s.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }() // read-only: nothing to keep
	var leaf int
	err = tx.QueryRowContext(ctx, `SELECT COALESCE(leaf_seq, 0) FROM sessions WHERE id = ?`, sessionID).Scan(&leaf)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil || leaf == 0 {
		return err
	}
	nodes, err := readNodes(ctx, tx, sessionID)
	if err != nil {
		return err
	}
	path, err := pathTo(nodes, leaf)
	if err != nil {
		return err
	}
	entries, err := readEntries(ctx, tx, sessionID, nodes, path[from(path, nodes):])
	if err != nil {
		return err
	}
	got(entries)
	return nil
}

// readNodes reads the shape of the session's tree.
func readNodes(ctx context.Context, tx *sql.Tx, sessionID string) (map[int]node, error) {
	rows, err := tx.QueryContext(ctx, `SELECT seq, COALESCE(parent_seq, 0), kind, role
		FROM transcript_entries WHERE session_id = ?`, sessionID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	nodes := map[int]node{}
	for rows.Next() {
		var seq int
		var n node
		if err := rows.Scan(&seq, &n.parent, &n.kind, &n.role); err != nil {
			return nil, err
		}
		nodes[seq] = n
	}
	return nodes, rows.Err()
}

// pathTo is the sequence numbers root → leaf. A parent that is missing or
// a cycle is reported: the tree is damaged.
func pathTo(nodes map[int]node, leaf int) ([]int, error) {
	var path []int
	for seq := leaf; seq != 0; seq = nodes[seq].parent {
		if _, ok := nodes[seq]; !ok {
			return nil, fmt.Errorf("transcript entry %d is missing from the tree", seq)
		}
		if len(path) > len(nodes) {
			return nil, fmt.Errorf("the transcript tree has a cycle through entry %d", seq)
		}
		path = append(path, seq)
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path, nil
}

// readEntries reads and decodes the entries path names, in its order.
// Messages are decoded on every CPU (decoder); context entries here.
func readEntries(ctx context.Context, tx *sql.Tx, sessionID string, nodes map[int]node, path []int) ([]Entry, error) {
	if len(path) == 0 {
		return nil, nil
	}
	want := make(map[int]int, len(path)) // seq → index in path
	for i, seq := range path {
		want[seq] = i
	}
	low := path[0] // a parent is written before its children: the root's seq is the lowest
	rows, err := tx.QueryContext(ctx, `SELECT seq, kind, content, created_at FROM transcript_entries
		WHERE session_id = ? AND seq >= ? ORDER BY seq`, sessionID, low)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	entries := make([]Entry, len(path))
	var order []int // the path indexes of the messages, in the decoder's order
	d := newDecoder()
	var scanErr error
	for rows.Next() {
		var seq int
		var created int64
		var kind EntryKind
		var content []byte
		if scanErr = rows.Scan(&seq, &kind, &content, &created); scanErr != nil {
			break
		}
		i, ok := want[seq]
		if !ok {
			continue // another branch's
		}
		entries[i] = Entry{Seq: seq, Parent: nodes[seq].parent, Kind: kind, Created: time.UnixMilli(created).UTC()}
		if kind != EntryMessage {
			if scanErr = decodeOther(&entries[i], content); scanErr != nil {
				break
			}
			continue
		}
		order = append(order, i)
		d.add(content)
	}
	msgs, derr := d.finish()
	if err := errors.Join(scanErr, rows.Err(), derr); err != nil {
		return nil, err
	}
	for k, i := range order {
		entries[i].Message = msgs[k]
	}
	return entries, nil
}

// decodeOther decodes the content of an entry that is not a message.
func decodeOther(e *Entry, content []byte) error {
	var err error
	switch {
	case e.Kind == EntryContext:
		err = json.Unmarshal(content, &e.Context)
	case e.Kind.IsMarker():
		err = json.Unmarshal(content, &e.Marker)
	default:
		err = fmt.Errorf("unknown kind %q (written by a newer steer?)", e.Kind)
	}
	if err != nil {
		return fmt.Errorf("decode %s entry %d: %w", e.Kind, e.Seq, err)
	}
	return nil
}

// branchSummaryIntro introduces a branch summary to the model.
const branchSummaryIntro = "The conversation went down another branch, which the user has left. A summary of that branch:\n\n"

// BranchSummaryMessage is how the model sees branch summary entry e: a
// user message that says what it is.
func BranchSummaryMessage(e Entry) agent.Message {
	return agent.Message{Role: agent.RoleUser, Timestamp: e.Created,
		Content: []agent.Content{agent.Text(branchSummaryIntro + e.Marker.Summary)}}
}

// Tree is a session's whole transcript tree: every entry of every branch in
// the order written (a parent before its children), and the leaf.
type Tree struct {
	Leaf    int
	Entries []Entry
}

// LoadTree reads session id's whole tree in one snapshot, or an error
// wrapping ErrNotFound when the session does not exist.
func (s *Store) LoadTree(ctx context.Context, sessionID string) (Tree, error) {
	t, err := s.loadTree(ctx, sessionID)
	if err != nil {
		return Tree{}, s.classify(fmt.Errorf("load the tree of session %s: %w", sessionID, err))
	}
	return t, nil
}

func (s *Store) loadTree(ctx context.Context, sessionID string) (Tree, error) {
	tx, err := s.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Tree{}, err
	}
	defer func() { _ = tx.Rollback() }() // read-only: nothing to keep
	var t Tree
	err = tx.QueryRowContext(ctx, `SELECT COALESCE(leaf_seq, 0) FROM sessions WHERE id = ?`, sessionID).Scan(&t.Leaf)
	if errors.Is(err, sql.ErrNoRows) {
		return Tree{}, ErrNotFound
	}
	if err != nil {
		return Tree{}, err
	}
	nodes, err := readNodes(ctx, tx, sessionID)
	if err != nil {
		return Tree{}, err
	}
	all := make([]int, 0, len(nodes))
	for seq := range nodes {
		all = append(all, seq)
	}
	slices.Sort(all)
	t.Entries, err = readEntries(ctx, tx, sessionID, nodes, all)
	return t, err
}
