package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// TrustFile is where in the state directory the allowances of workspace
// files are kept.
const TrustFile = "mcp-trust.json"

// Allowance trusts one workspace file with one content.
type Allowance struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// TrustStore keeps the allowances the user gave (the TUI's dialog) in the
// state directory, mode 0600. A changed file has another hash, so it is
// not trusted until allowed again.
type TrustStore struct {
	path string
	mu   sync.Mutex
}

// NewTrustStore is the store of the state directory stateDir.
func NewTrustStore(stateDir string) *TrustStore {
	return &TrustStore{path: filepath.Join(stateDir, TrustFile)}
}

// Trusted reports whether the file at path with hash was allowed; an
// unreadable store trusts nothing and says why.
func (t *TrustStore) Trusted(path, hash string) (bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	list, err := t.read()
	return slices.Contains(list, Allowance{Path: path, SHA256: hash}), err
}

// Allow records that the file at path with hash is trusted; allowances of
// the same path with other contents are dropped (they can never match
// again).
func (t *TrustStore) Allow(path, hash string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	list, err := t.read()
	if err != nil {
		return err
	}
	list = slices.DeleteFunc(list, func(a Allowance) bool { return a.Path == path })
	list = append(list, Allowance{Path: path, SHA256: hash})
	data, err := json.MarshalIndent(struct {
		Trusted []Allowance `json:"trusted"`
	}{list}, "", "  ")
	if err != nil {
		return err
	}
	tmp := t.path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("cannot record the trust: %w", err)
	}
	if err := os.Rename(tmp, t.path); err != nil {
		return fmt.Errorf("cannot record the trust: %w", err)
	}
	return nil
}

func (t *TrustStore) read() ([]Allowance, error) {
	data, err := os.ReadFile(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", t.path, err)
	}
	var f struct {
		Trusted []Allowance `json:"trusted"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s is damaged (%v): no workspace file is trusted until it is fixed or removed", t.path, err)
	}
	return f.Trusted, nil
}
