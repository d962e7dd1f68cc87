package oauth

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestStoreRoundTripAndMode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "oauth")
	s := NewStore(dir)
	want := Record{
		ServerURL: "https://mcp.example.com/mcp",
		Client:    &RegisteredClient{Issuer: "https://as.example.com", ClientID: "c1", AuthMethod: "none", RedirectURI: "http://127.0.0.1:1234/callback"},
		Token:     &Token{AccessToken: "at", RefreshToken: "rt", Expiry: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Scope: []string{"a"}, Resource: "https://mcp.example.com/mcp"},
		Scopes:    []string{"a", "b"},
	}
	if err := s.Save("srv", want); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(s.Path("srv"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("file mode %04o, want 0600", info.Mode().Perm())
	}
	if d, _ := os.Stat(dir); d.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %04o, want 0700", d.Mode().Perm())
	}
	got, err := s.Load("srv")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Load = %+v, want %+v", got, want)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("dir holds %d entries, want only the record (no temporary files)", len(entries))
	}
}

func TestStoreMissingIsEmpty(t *testing.T) {
	r, err := NewStore(t.TempDir()).Load("nothing")
	if err != nil || !reflect.DeepEqual(r, Record{}) {
		t.Fatalf("Load = %+v, %v; want an empty record", r, err)
	}
}

func TestStoreRefusesBadFiles(t *testing.T) {
	tests := []struct {
		name    string
		mode    os.FileMode
		content string
		wantErr string
	}{
		{"group readable", 0o640, `{}`, "chmod 600"},
		{"world readable", 0o644, `{}`, "more open than 0600"},
		{"not json", 0o600, `{`, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStore(t.TempDir())
			path := s.Path("srv")
			if err := os.WriteFile(path, []byte(tt.content), tt.mode); err != nil {
				t.Fatal(err)
			}
			os.Chmod(path, tt.mode)
			_, err := s.Load("srv")
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Load error = %v, want one containing %q", err, tt.wantErr)
			}
			if data, _ := os.ReadFile(path); string(data) != tt.content {
				t.Errorf("the refused file changed: %q", data)
			}
		})
	}
}

func TestFileNameStaysInDirectory(t *testing.T) {
	tests := []struct{ server, want string }{
		{"github", "github"},
		{"my server", "my%20server"},
		{"../etc/passwd", "..%2Fetc%2Fpasswd"},
		{"..", "%.."},
		{"", "%"},
		{"a/b", "a%2Fb"},
	}
	for _, tt := range tests {
		if got := fileName(tt.server); got != tt.want {
			t.Errorf("fileName(%q) = %q, want %q", tt.server, got, tt.want)
		}
		dir := t.TempDir()
		if p := NewStore(dir).Path(tt.server); filepath.Dir(p) != dir {
			t.Errorf("Path(%q) = %s, outside %s", tt.server, p, dir)
		}
	}
}
