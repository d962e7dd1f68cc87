package tools

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/steer-tui/steer/agent"
)

func TestRead(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "five.txt", numberedLines(5))
	writeFile(t, ws, "no-newline.txt", "a\nb")
	writeFile(t, ws, "long.txt", numberedLines(5321))
	writeFile(t, ws, "wide.txt", strings.Repeat(strings.Repeat("x", 1000)+"\n", 100))
	writeFile(t, ws, "one-long-line.txt", strings.Repeat("é", 3000)+"\nafter\n")
	writeFile(t, ws, "latin1.txt", "caf\xe9 au lait, a long line of ordinary text\n")
	writeFile(t, ws, "empty.txt", "")
	writeFile(t, ws, "sub/nested.txt", "nested\n")
	abs := writeFile(t, ws, "abs.txt", "absolute\n")

	tests := []struct {
		name    string
		args    map[string]any
		want    string // the whole text, unless prefix/suffix are set
		prefix  string
		suffix  string
		details ReadDetails
		isError bool
	}{
		{name: "whole file", args: map[string]any{"path": "five.txt"},
			want:    "1\tline 1\n2\tline 2\n3\tline 3\n4\tline 4\n5\tline 5",
			details: ReadDetails{TotalLines: 5, StartLine: 1, EndLine: 5}},
		{name: "offset and limit", args: map[string]any{"path": "five.txt", "offset": 2.0, "limit": 2.0},
			want:    "2\tline 2\n3\tline 3\n\n[showing lines 2-3 of 5 in total; use offset=4 to continue]",
			details: ReadDetails{TotalLines: 5, StartLine: 2, EndLine: 3}},
		{name: "offset to the end", args: map[string]any{"path": "five.txt", "offset": 4.0},
			want:    "4\tline 4\n5\tline 5",
			details: ReadDetails{TotalLines: 5, StartLine: 4, EndLine: 5}},
		{name: "offset past the end", args: map[string]any{"path": "five.txt", "offset": 9.0},
			prefix: "offset 9 is past the end", details: ReadDetails{TotalLines: 5}, isError: true},
		{name: "last line without newline", args: map[string]any{"path": "no-newline.txt"},
			want: "1\ta\n2\tb", details: ReadDetails{TotalLines: 2, StartLine: 1, EndLine: 2}},
		{name: "line cap", args: map[string]any{"path": "long.txt"},
			prefix:  "   1\tline 1\n   2\tline 2\n",
			suffix:  "2000\tline 2000\n\n[showing lines 1-2000 of 5321 in total; use offset=2001 to continue]",
			details: ReadDetails{TotalLines: 5321, StartLine: 1, EndLine: 2000, Truncated: true}},
		{name: "limit above the cap", args: map[string]any{"path": "long.txt", "offset": 4001.0, "limit": 5000.0},
			suffix:  "5321\tline 5321",
			details: ReadDetails{TotalLines: 5321, StartLine: 4001, EndLine: 5321}},
		{name: "byte cap", args: map[string]any{"path": "wide.txt"},
			suffix:  "[showing lines 1-50 of 100 in total; use offset=51 to continue]",
			details: ReadDetails{TotalLines: 100, StartLine: 1, EndLine: 50, Truncated: true}},
		{name: "long line cut", args: map[string]any{"path": "one-long-line.txt"},
			want:    "1\t" + strings.Repeat("é", maxLineRunes) + lineCutMarker + "\n2\tafter",
			details: ReadDetails{TotalLines: 2, StartLine: 1, EndLine: 2}},
		{name: "a few invalid bytes are replaced", args: map[string]any{"path": "latin1.txt"},
			want:    "1\tcaf\uFFFD au lait, a long line of ordinary text",
			details: ReadDetails{TotalLines: 1, StartLine: 1, EndLine: 1}},
		{name: "empty file", args: map[string]any{"path": "empty.txt"},
			want: "(empty file)", details: ReadDetails{}},
		{name: "nested relative path", args: map[string]any{"path": "sub/nested.txt"},
			want: "1\tnested", details: ReadDetails{TotalLines: 1, StartLine: 1, EndLine: 1}},
		{name: "absolute path", args: map[string]any{"path": abs},
			want: "1\tabsolute", details: ReadDetails{TotalLines: 1, StartLine: 1, EndLine: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := execute(t, Read(ws), tt.args)
			got := text(r)
			switch {
			case tt.want != "" && got != tt.want:
				t.Errorf("text = %q, want %q", got, tt.want)
			case !strings.HasPrefix(got, tt.prefix):
				t.Errorf("text = %.200q…, want prefix %q", got, tt.prefix)
			case !strings.HasSuffix(got, tt.suffix):
				t.Errorf("text = …%q, want suffix %q", got[max(len(got)-200, 0):], tt.suffix)
			}
			if r.IsError != tt.isError {
				t.Errorf("IsError = %v, want %v", r.IsError, tt.isError)
			}
			d, _ := r.Details.(ReadDetails)
			d.Path = ""
			if d != tt.details {
				t.Errorf("details = %+v, want %+v", d, tt.details)
			}
			if n := len(got); n > maxBytes+200 {
				t.Errorf("text is %d bytes, above the cap", n)
			}
		})
	}
}

func TestReadRefuses(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "nul.bin", "ELF\x00\x01\x02"+strings.Repeat("x", 2000))
	writeFile(t, ws, "noise.bin", strings.Repeat("\xff\xfe\x80abc", 500))
	writeFile(t, ws, "dir/file.txt", "x")
	if err := syscall.Mkfifo(filepath.Join(ws, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		path string
		want []string
	}{
		{name: "NUL byte", path: "nul.bin", want: []string{"binary", "2.0 KB"}},
		{name: "mostly invalid UTF-8", path: "noise.bin", want: []string{"binary", "2.9 KB"}},
		{name: "missing file", path: "nope.txt", want: []string{"not found", "nope.txt"}},
		{name: "directory", path: "dir", want: []string{"is a directory", "ls"}},
		{name: "FIFO", path: "fifo", want: []string{"not a regular file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := execute(t, Read(ws), map[string]any{"path": tt.path})
			if !r.IsError {
				t.Errorf("IsError = false, want true")
			}
			got := text(r)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("text = %q, want it to mention %q", got, w)
				}
			}
			if len(got) > 200 {
				t.Errorf("text is %d bytes; a refusal holds no content", len(got))
			}
		})
	}
}

func TestReadImage(t *testing.T) {
	ws := t.TempDir()
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + strings.Repeat("\x00", 20)
	writeFile(t, ws, "a.png", png)
	writeFile(t, ws, "b.jpg", "\xff\xd8\xff\xe0\x00\x10JFIF\x00")
	writeFile(t, ws, "c.gif", "GIF89a\x01\x00\x01\x00")
	writeFile(t, ws, "d.webp", "RIFF\x10\x00\x00\x00WEBPVP8 ")
	writeFile(t, ws, "e.wav", "RIFF\x10\x00\x00\x00WAVEfmt \x00\x00")
	writeFile(t, ws, "huge.png", "\x89PNG\r\n\x1a\n"+strings.Repeat("\x00", maxImageBytes))
	tests := []struct {
		path, mime, text string
		isError          bool
	}{
		{"a.png", "image/png", "Read image file " + filepath.Join(ws, "a.png") + " [image/png, 36 B]", false},
		{"b.jpg", "image/jpeg", "[image/jpeg, 11 B]", false},
		{"c.gif", "image/gif", "[image/gif, 10 B]", false},
		{"d.webp", "image/webp", "[image/webp, 16 B]", false},
		{"e.wav", "", "is a binary file", true},
		{"huge.png", "", "is an image (image/png) of 5.0 MB, more than the 5.0 MB an image may have", true},
	}
	for _, tt := range tests {
		r := execute(t, Read(ws), map[string]any{"path": tt.path})
		if got := text(r); !strings.Contains(got, tt.text) || r.IsError != tt.isError {
			t.Errorf("%s: %q (error %v), want %q (error %v)", tt.path, got, r.IsError, tt.text, tt.isError)
		}
		if tt.isError {
			continue
		}
		if len(r.Content) != 2 || r.Content[1].Type != agent.ContentImage || r.Content[1].MimeType != tt.mime {
			t.Fatalf("%s: content %+v, want text then a %s image", tt.path, r.Content, tt.mime)
		}
		data, err := base64.StdEncoding.DecodeString(r.Content[1].Data)
		if raw, _ := os.ReadFile(filepath.Join(ws, tt.path)); err != nil || string(data) != string(raw) {
			t.Errorf("%s: image data differs from the file", tt.path)
		}
	}
}
