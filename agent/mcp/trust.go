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
// files were kept before the workspace trust (agent/runner/trust) took
// their place; they are still honoured for the .mcp.json they name.
const TrustFile = "mcp-trust.json"

// Allowance trusts one workspace file with one content.
type Allowance struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// TrustStore reads the allowances the user gave in the state directory
// before the workspace trust. A changed file has another hash, so it is
// not trusted by them.
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
