package term

import (
	"context"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClipboardIsOSC52WithBase64(t *testing.T) {
	text := "# Answer\n\n`code` and ünïcode\n"
	got := Clipboard(text)
	want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestFindSystemClipboard(t *testing.T) {
	all := func(name string) (string, error) { return "/usr/bin/" + name, nil }
	only := func(names ...string) func(string) (string, error) {
		return func(name string) (string, error) {
			for _, n := range names {
				if n == name {
					return "/usr/bin/" + n, nil
				}
			}
			return "", errors.New("not found")
		}
	}
	tests := []struct {
		name   string
		goos   string
		env    func(string) string
		lookup func(string) (string, error)
		want   string // "" for none
	}{
		{"wayland", "linux", env("WAYLAND_DISPLAY", "wayland-0", "DISPLAY", ":0"), all, "wl-copy"},
		{"x11", "linux", env("DISPLAY", ":0"), all, "xclip"},
		{"x11 with xsel only", "linux", env("DISPLAY", ":0"), only("xsel"), "xsel"},
		{"no display", "linux", env(), all, ""},
		{"tool missing", "linux", env("WAYLAND_DISPLAY", "w"), only("xclip"), ""},
		{"macOS", "darwin", env(), all, "pbcopy"},
		{"macOS over ssh", "darwin", env("SSH_CONNECTION", "1.2.3.4 5 6.7.8.9 22"), all, ""},
		{"ssh with X forwarded", "linux", env("SSH_TTY", "/dev/pts/1", "DISPLAY", "localhost:10"), all, "xclip"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := FindSystemClipboard(tt.goos, tt.env, tt.lookup)
			if ok != (tt.want != "") || c.Name != tt.want {
				t.Fatalf("got %q, %v; want %q", c.Name, ok, tt.want)
			}
		})
	}
}

// TestSystemClipboardCopy runs a real tool: a script that saves its input,
// as wl-copy would put it on the clipboard.
func TestSystemClipboardCopy(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "clipboard")
	tool := filepath.Join(dir, "wl-copy")
	if err := os.WriteFile(tool, []byte("#!/bin/sh\ncat > "+saved+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c, ok := FindSystemClipboard("linux", env("WAYLAND_DISPLAY", "w"), func(name string) (string, error) {
		return filepath.Join(dir, name), nil
	})
	if !ok {
		t.Fatal("the tool was not found")
	}
	text := strings.Repeat("a line of the answer\n", 5000) // more than a pipe holds
	if err := c.Copy(context.Background(), text); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(saved)
	if err != nil || string(got) != text {
		t.Fatalf("the tool got %d bytes (%v), want %d", len(got), err, len(text))
	}
	if err := (SystemClipboard{}).Copy(context.Background(), "x"); err == nil {
		t.Error("copying with no tool did not fail")
	}
}
