// Package trust records which workspaces the user trusts to bring what
// runs code or changes steer's behaviour (the project config, .mcp.json):
// per canonical workspace path, the hashes of the files trusted. A file
// that changes, appears or disappears since is no longer trusted, so that
// steer asks again.
package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// File is where in the state directory the trusts are kept, mode 0600.
const File = "workspace-trust.json"

// Workspace is a workspace as it is now: its canonical path and the files
// it brings, each with the SHA-256 of its contents in hex.
type Workspace struct {
	Path  string            `json:"path"`
	Files map[string]string `json:"files"`
}

// Canonical is dir's absolute path with symbolic links resolved: one
// workspace has one record whichever way it is reached.
func Canonical(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, nil
	}
	return abs, nil
}

// Hash is the SHA-256 of the file's contents, in hex.
func Hash(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// Describe is the workspace at dir bringing files (the ones that exist of
// them are hashed, the missing left out).
func Describe(dir string, files ...string) (Workspace, error) {
	path, err := Canonical(dir)
	if err != nil {
		return Workspace{}, err
	}
	w := Workspace{Path: path, Files: map[string]string{}}
	for _, f := range files {
		h, err := Hash(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return Workspace{}, fmt.Errorf("cannot read %s: %w", f, err)
		}
		w.Files[f] = h
	}
	return w, nil
}

// Store keeps the user's trusts in the state directory. It is safe for
// concurrent use by one process; a write replaces the file atomically.
type Store struct {
	path string
	mu   sync.Mutex
}

// NewStore is the store of the state directory stateDir.
func NewStore(stateDir string) *Store { return &Store{path: filepath.Join(stateDir, File)} }

// State is how a workspace stands.
type State struct {
	// Trusted: a trust is recorded for these very files.
	Trusted bool
	// Changed: a trust is recorded for the path, but its files differ.
	Changed bool
}

// Check says how w stands; an unreadable store trusts nothing and says
// why.
func (s *Store) Check(w Workspace) (State, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list, err := s.read()
	i := slices.IndexFunc(list, func(r Workspace) bool { return r.Path == w.Path })
	if i < 0 {
		return State{}, err
	}
	same := maps.Equal(list[i].Files, w.Files)
	return State{Trusted: same, Changed: !same}, err
}

// Trust records w as trusted, replacing any earlier trust of its path.
func (s *Store) Trust(w Workspace) error {
	return s.update(func(list []Workspace) []Workspace {
		list = slices.DeleteFunc(list, func(r Workspace) bool { return r.Path == w.Path })
		return append(list, w)
	})
}

// Revoke forgets the trust of the workspace at path; it reports whether
// there was one.
func (s *Store) Revoke(path string) (bool, error) {
	found := false
	err := s.update(func(list []Workspace) []Workspace {
		n := len(list)
		list = slices.DeleteFunc(list, func(r Workspace) bool { return r.Path == path })
		found = len(list) < n
		return list
	})
	return found, err
}

func (s *Store) update(change func([]Workspace) []Workspace) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	list, err := s.read()
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(record{Workspaces: change(list)}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("cannot record the trust: %w", err)
	}
	tmp := s.path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("cannot record the trust: %w", err)
	}
	if err := os.Rename(tmp, s.path); err != nil {
		return fmt.Errorf("cannot record the trust: %w", err)
	}
	return nil
}

// record is the file's shape.
type record struct {
	Workspaces []Workspace `json:"workspaces"`
}

func (s *Store) read() ([]Workspace, error) {
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", s.path, err)
	}
	var r record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s is damaged (%v): no workspace is trusted until it is fixed or removed", s.path, err)
	}
	return r.Workspaces, nil
}
