// Package checkpoint snapshots a workspace into a shadow git repository in
// the state directory and restores it from there, for rewind (issue 32).
//
// The shadow repository is a git dir of its own with the workspace as work
// tree and one index per session; it never reads or writes the user's .git
// (beyond copying .git/info/exclude, so that what the user ignores is left
// out here too), index, stash, branches or configuration, and it works the
// same in a directory that is not a repository. A snapshot stats the files
// against the session's index, so only what changed since the last one is
// hashed. Files over the size cap and ignored files are left out and named
// in the checkpoint's record, and a restore never touches them.
//
// Each checkpoint is a commit whose message is its record (session, turn,
// kind, time, what was left out) under refs/steer/<session>/, which keeps its
// objects alive until Prune drops it.
package checkpoint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// DefaultMaxFileSize is the size cap: larger files are left out.
const DefaultMaxFileSize = 2 << 20

// The retention: checkpoints older than this, or beyond this many per
// session, are pruned.
const (
	DefaultMaxAge   = 7 * 24 * time.Hour
	DefaultMaxCount = 100
)

// The kinds of checkpoint.
const (
	// KindTurn is taken before the first mutating tool of a turn.
	KindTurn = "turn"
	// KindRestore is taken after a restore, so that rewinding to the state
	// before it (/redo) undoes it.
	KindRestore = "restore"
)

// The reasons a file is left out of a checkpoint.
const (
	LeftIgnored  = "ignored"
	LeftOverSize = "over the size cap"
)

// ErrNoGit says the git binary is not on PATH: checkpoints need it.
var ErrNoGit = errors.New("checkpoints need git on PATH")

// Options tune a Store; the zero value is the default.
type Options struct {
	// MaxFileSize is the size cap in bytes (0: DefaultMaxFileSize).
	MaxFileSize int64
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Store is the checkpoints of one workspace. Its methods may be called from
// any goroutine; a session's snapshots and restores run one at a time.
type Store struct {
	dir, workspace, git string
	maxSize             int64
	now                 func() time.Time

	mu sync.Mutex // one snapshot or restore at a time in this process
}

// Open opens (creating it) the shadow repository of workspace under
// stateDir/checkpoints.
func Open(stateDir, workspace string, opts Options) (*Store, error) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, ErrNoGit
	}
	ws, err := filepath.Abs(workspace)
	if err != nil {
		return nil, err
	}
	if ws, err = filepath.EvalSymlinks(ws); err != nil {
		return nil, fmt.Errorf("checkpoints of %s: %w", workspace, err)
	}
	sum := sha256.Sum256([]byte(ws))
	s := &Store{dir: filepath.Join(stateDir, "checkpoints", hex.EncodeToString(sum[:8])+".git"),
		workspace: ws, git: git, maxSize: opts.MaxFileSize, now: opts.Now}
	if s.maxSize <= 0 {
		s.maxSize = DefaultMaxFileSize
	}
	if s.now == nil {
		s.now = time.Now
	}
	if _, err := os.Stat(filepath.Join(s.dir, "HEAD")); err != nil {
		if err := os.MkdirAll(filepath.Dir(s.dir), 0o700); err != nil {
			return nil, err
		}
		g := s.shadow("")
		if _, err := g.run(context.Background(), nil, "init", "-q"); err != nil {
			return nil, fmt.Errorf("create the checkpoint repository: %w", err)
		}
		// Never collect garbage behind our back: Prune decides what goes.
		for _, kv := range [][2]string{{"gc.auto", "0"}, {"core.untrackedCache", "true"}} {
			if _, err := g.run(context.Background(), nil, "config", kv[0], kv[1]); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// Workspace is the work tree, absolute with links resolved.
func (s *Store) Workspace() string { return s.workspace }

// LeftOut is a file or directory a checkpoint does not hold, and why.
type LeftOut struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

// Checkpoint is one snapshot's record.
type Checkpoint struct {
	// ID is the snapshot's commit.
	ID      string    `json:"-"`
	Session string    `json:"session"`
	Turn    string    `json:"turn"`
	Kind    string    `json:"kind"`
	Created time.Time `json:"created"`
	LeftOut []LeftOut `json:"leftOut,omitempty"`
	// Before is, for a KindRestore, the snapshot of what the restore
	// replaced: restoring it undoes the restore (/redo).
	Before string `json:"before,omitempty"`
}

// sessionName is what a session id may look like to be part of a ref.
var sessionName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

func (s *Store) shadow(session string) shadow {
	return shadow{git: s.git, dir: s.dir, index: filepath.Join(s.dir, "index-"+session), workTree: s.workspace}
}

func checkSession(session string) error {
	if !sessionName.MatchString(session) || strings.Contains(session, "..") {
		return fmt.Errorf("checkpoint: bad session id %q", session)
	}
	return nil
}

// Take snapshots the workspace for session's turn and records it.
func (s *Store) Take(ctx context.Context, session, turn, kind string) (Checkpoint, error) {
	if err := checkSession(session); err != nil {
		return Checkpoint{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.take(ctx, session, turn, kind, "")
}

// take snapshots; a KindTurn or KindRestore snapshot is kept as a
// checkpoint of the session (a preview's snapshot of the present is not).
// A restore's snapshot has the state it replaced, before, as its parent.
func (s *Store) take(ctx context.Context, session, turn, kind, before string) (Checkpoint, error) {
	g := s.shadow(session)
	tree, left, err := s.stage(ctx, g)
	if err != nil {
		return Checkpoint{}, fmt.Errorf("snapshot %s: %w", s.workspace, err)
	}
	c := Checkpoint{Session: session, Turn: turn, Kind: kind, Created: s.now().UTC(), LeftOut: left, Before: before}
	msg, err := json.Marshal(c)
	if err != nil {
		return Checkpoint{}, err
	}
	if c.ID, err = g.writeCommit(tree, before, c.Created, msg); err != nil {
		return Checkpoint{}, err
	}
	if kind == KindTurn || kind == KindRestore {
		// A loose ref is a file holding the id; writing it here spares a
		// git process on the path every turn's first tool waits on.
		ref := filepath.Join(s.dir, "refs", "steer", session, fmt.Sprintf("%020d", c.Created.UnixNano()))
		if err := os.MkdirAll(filepath.Dir(ref), 0o700); err != nil {
			return Checkpoint{}, err
		}
		if err := writeSynced(ref, []byte(c.ID+"\n"), 0o600); err != nil {
			return Checkpoint{}, fmt.Errorf("record checkpoint %s: %w", c.ID, err)
		}
	}
	return c, nil
}

// List is session's checkpoints, newest first.
func (s *Store) List(ctx context.Context, session string) ([]Checkpoint, error) {
	if err := checkSession(session); err != nil {
		return nil, err
	}
	g := s.shadow(session)
	out, err := g.run(ctx, nil, "for-each-ref", "--sort=-refname", "--format=%(objectname)%00%(contents)%00", "refs/steer/"+session+"/")
	if err != nil {
		return nil, err
	}
	var list []Checkpoint
	f := nulSplit(out)
	for i := 0; i+1 < len(f); i += 2 {
		var c Checkpoint
		if err := json.Unmarshal([]byte(strings.TrimSpace(f[i+1])), &c); err != nil {
			return nil, fmt.Errorf("checkpoint %s: bad record: %w", f[i], err)
		}
		c.ID = strings.TrimSpace(f[i])
		list = append(list, c)
	}
	return list, nil
}

// Undo is the state the session's latest restore replaced, as a checkpoint
// to restore (/redo); it fails when the session has no restore.
func (s *Store) Undo(ctx context.Context, session string) (Checkpoint, error) {
	list, err := s.List(ctx, session)
	if err != nil {
		return Checkpoint{}, err
	}
	for _, c := range list {
		if c.Kind != KindRestore || c.Before == "" {
			continue
		}
		msg, err := s.shadow(session).run(ctx, nil, "log", "-1", "--format=%B", c.Before)
		if err != nil {
			return Checkpoint{}, err
		}
		var b Checkpoint
		if err := json.Unmarshal(msg, &b); err != nil {
			return Checkpoint{}, fmt.Errorf("checkpoint %s: bad record: %w", c.Before, err)
		}
		b.ID, b.Session, b.Turn = c.Before, session, c.Turn
		return b, nil
	}
	return Checkpoint{}, ErrNoRestore
}

// ErrNoRestore says there is no restore to undo.
var ErrNoRestore = errors.New("nothing to redo: the session has no rewind")

// Prune drops session's checkpoints older than maxAge or beyond the newest
// maxCount (zero values: the defaults), and returns how many went. Their
// objects go at the next repack; the files of the workspace are never
// touched.
func (s *Store) Prune(ctx context.Context, session string, maxAge time.Duration, maxCount int) (int, error) {
	if maxAge <= 0 {
		maxAge = DefaultMaxAge
	}
	if maxCount <= 0 {
		maxCount = DefaultMaxCount
	}
	list, err := s.List(ctx, session)
	if err != nil {
		return 0, err
	}
	var stdin strings.Builder
	n := 0
	cut := s.now().Add(-maxAge)
	for i, c := range list {
		if i >= maxCount || c.Created.Before(cut) {
			fmt.Fprintf(&stdin, "delete refs/steer/%s/%020d\n", session, c.Created.UnixNano())
			n++
		}
	}
	if n == 0 {
		return 0, nil
	}
	_, err = s.shadow(session).run(ctx, strings.NewReader(stdin.String()), "update-ref", "--stdin")
	return n, err
}
