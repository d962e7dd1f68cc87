package trust

import (
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestStore(t *testing.T) {
	ws := t.TempDir()
	cfg, mcp := filepath.Join(ws, "config.json"), filepath.Join(ws, ".mcp.json")
	write(t, cfg, `{"a": 1}`)
	s := NewStore(filepath.Join(t.TempDir(), "state"))
	describe := func() Workspace {
		w, err := Describe(ws, cfg, mcp)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	check := func(step string, want State) {
		t.Helper()
		got, err := s.Check(describe())
		if err != nil || got != want {
			t.Errorf("%s: %+v, %v; want %+v", step, got, err, want)
		}
	}
	check("never trusted", State{})
	if err := s.Trust(describe()); err != nil {
		t.Fatal(err)
	}
	check("trusted", State{Trusted: true})
	write(t, cfg, `{"a": 2}`)
	check("a file changed", State{Changed: true})
	if err := s.Trust(describe()); err != nil {
		t.Fatal(err)
	}
	check("trusted again", State{Trusted: true})
	write(t, mcp, `{}`)
	check("a file appeared", State{Changed: true})
	if err := s.Trust(describe()); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(mcp); err != nil {
		t.Fatal(err)
	}
	check("a file went", State{Changed: true})
	if found, err := s.Revoke(describe().Path); !found || err != nil {
		t.Errorf("Revoke = %v, %v", found, err)
	}
	check("revoked", State{})
	st, err := os.Stat(s.path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("store file: %v, %v; want mode 0600", st, err)
	}
}

func TestDamagedStoreTrustsNothing(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, File), "{not json")
	s := NewStore(dir)
	st, err := s.Check(Workspace{Path: dir})
	if err == nil || st.Trusted {
		t.Errorf("Check = %+v, %v; want an error and no trust", st, err)
	}
	if err := s.Trust(Workspace{Path: dir}); err == nil {
		t.Error("Trust over a damaged store: want an error, not a rewrite that loses it")
	}
}

func TestCanonicalResolvesLinks(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip(err)
	}
	a, _ := Canonical(dir)
	b, _ := Canonical(link)
	if a != b {
		t.Errorf("Canonical: %q and %q for one directory", a, b)
	}
}
