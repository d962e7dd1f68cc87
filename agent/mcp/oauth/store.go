package oauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// fileMode is the only mode a credentials file may have: tokens and client
// secrets are the user's alone.
const fileMode fs.FileMode = 0o600

// Store keeps one JSON file per server in a directory: the registered client,
// the tokens and the scopes last asked for. It holds no cache, so several
// processes (a TUI and a `steer mcp login`) see each other's writes.
//
// A file whose mode is more open than 0600 is refused on read, like ssh
// refuses a readable private key: someone else may have read the tokens, and
// silently tightening the mode would hide that. The error names the chmod
// that fixes it. Writes go to a temporary file in the same directory that is
// renamed over the old one, so a crash never leaves half a file, and the mode
// is checked after the rename.
type Store struct {
	dir string
}

// NewStore returns a store under dir (created 0700 on the first write).
func NewStore(dir string) *Store { return &Store{dir: dir} }

// Record is what the store holds for one server.
type Record struct {
	// ServerURL is the canonical URL the record belongs to; a record for
	// another URL (the configuration changed) is not used.
	ServerURL string `json:"serverUrl"`
	// Client is the client steer registered dynamically, nil when the
	// configuration names one or none was registered yet.
	Client *RegisteredClient `json:"client,omitempty"`
	// Token is the current grant, nil before the first login or after a
	// refresh the authorization server refused.
	Token *Token `json:"token,omitempty"`
	// Scopes is the scope set the last challenge asked for (a 401's or a
	// 403's), so the next login requests it.
	Scopes []string `json:"scopes,omitempty"`
}

// RegisteredClient is a client obtained by dynamic client registration
// (RFC 7591), bound to the authorization server that issued it.
type RegisteredClient struct {
	Issuer       string    `json:"issuer"`
	ClientID     string    `json:"clientId"`
	ClientSecret string    `json:"clientSecret,omitempty"`
	AuthMethod   string    `json:"tokenEndpointAuthMethod,omitempty"`
	RedirectURI  string    `json:"redirectUri"`
	SecretExpiry time.Time `json:"clientSecretExpiresAt,omitzero"`
}

// Token is an access token with what refreshing it needs, so a refresh does
// not repeat discovery.
type Token struct {
	AccessToken  string    `json:"accessToken"`
	TokenType    string    `json:"tokenType,omitempty"`
	RefreshToken string    `json:"refreshToken,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	Scope        []string  `json:"scope,omitempty"`
	// Issuer and TokenEndpoint name the authorization server; ClientID,
	// AuthMethod and Resource are sent again on refresh.
	Issuer        string `json:"issuer"`
	TokenEndpoint string `json:"tokenEndpoint"`
	ClientID      string `json:"clientId"`
	AuthMethod    string `json:"tokenEndpointAuthMethod,omitempty"`
	Resource      string `json:"resource"`
}

// expired reports whether the access token is past its expiry at now, with a
// margin so a token does not expire between the check and the server's.
func (t *Token) expired(now time.Time) bool {
	return !t.Expiry.IsZero() && !now.Before(t.Expiry.Add(-expiryMargin))
}

const expiryMargin = 10 * time.Second

// Path is the file that holds server's record.
func (s *Store) Path(server string) string {
	return filepath.Join(s.dir, fileName(server)+".json")
}

// fileName keeps a server name usable as a file name: configuration names
// are free text, and "../x" must not escape the directory.
func fileName(server string) string {
	var b strings.Builder
	for _, r := range server {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "%%%02X", r)
		}
	}
	name := b.String()
	if name == "" || strings.Trim(name, ".") == "" {
		name = "%" + name
	}
	return name
}

// Load returns server's record, an empty one when there is none yet.
func (s *Store) Load(server string) (Record, error) {
	path := s.Path(server)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Record{}, nil
	}
	if err != nil {
		return Record{}, fmt.Errorf("cannot read the OAuth credentials of %q: %w", server, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Record{}, fmt.Errorf("cannot read the OAuth credentials of %q: %w", server, err)
	}
	if perm := info.Mode().Perm(); perm&^fileMode != 0 {
		return Record{}, fmt.Errorf("the OAuth credentials %s have mode %04o, more open than %04o: others may have read them; check, then run `chmod 600 %s`", path, perm, fileMode, path)
	}
	var r Record
	if err := json.NewDecoder(f).Decode(&r); err != nil {
		return Record{}, fmt.Errorf("the OAuth credentials %s are not valid JSON (%v); move the file away and log in again", path, err)
	}
	return r, nil
}

// Save replaces server's record atomically.
func (s *Store) Save(server string, r Record) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("cannot store the OAuth credentials of %q: %w", server, err)
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	path := s.Path(server)
	if err := writeAtomic(path, data); err != nil {
		return fmt.Errorf("cannot store the OAuth credentials of %q: %w", server, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("cannot store the OAuth credentials of %q: %w", server, err)
	}
	if perm := info.Mode().Perm(); perm != fileMode {
		return fmt.Errorf("the OAuth credentials %s have mode %04o after writing, want %04o", path, perm, fileMode)
	}
	return nil
}

// update loads server's record, applies change and saves it. It is not a
// transaction across processes; the last writer wins, which at worst costs
// one more refresh or login.
func (s *Store) update(server string, change func(*Record)) error {
	r, err := s.Load(server)
	if err != nil {
		return err
	}
	change(&r)
	return s.Save(server, r)
}

// writeAtomic writes data to a 0600 temporary file beside path, syncs it and
// renames it over path.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(fileMode); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
