package mention

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steer-tui/steer/agent"
)

// png is the start of a PNG file: enough for its type to be known.
const png = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"

func TestExpand(t *testing.T) {
	big := strings.Repeat("0123456789abcde\n", MaxTextBytes/16+100)
	root := tree(t, map[string]string{
		".gitignore":    "*.log\n",
		"README.md":     "# steer\n",
		"big.txt":       big,
		"logo.png":      png,
		"blob.bin":      "\x00\x01\x02",
		"dir/a.go":      "package a",
		"dir/sub/b.go":  "package b",
		"dir/trace.log": "ignored",
	})
	cases := []struct {
		name, text string
		paths      []string
		want       []agent.Attachment
		check      func(t *testing.T, cs []agent.Content)
	}{
		{name: "a text file, with its path", text: "what is in @README.md?",
			want: []agent.Attachment{{Path: "README.md", Size: 8}},
			check: func(t *testing.T, cs []agent.Content) {
				if want := "<file path=\"README.md\">\n# steer\n</file>"; cs[0].Text != want {
					t.Errorf("text = %q, want %q", cs[0].Text, want)
				}
			}},
		{name: "a large file is cut, and says so", text: "@big.txt",
			want: []agent.Attachment{{Path: "big.txt", Size: int64(len(big))}},
			check: func(t *testing.T, cs []agent.Content) {
				if len(cs[0].Text) > MaxTextBytes+200 || !strings.Contains(cs[0].Text, "[cut: the first 65.5 KB of ") {
					t.Errorf("cut text of %d bytes ends %q", len(cs[0].Text), cs[0].Text[len(cs[0].Text)-120:])
				}
			}},
		{name: "an image is an image block", text: "look @logo.png",
			want: []agent.Attachment{{Path: "logo.png", Size: int64(len(png))}},
			check: func(t *testing.T, cs []agent.Content) {
				if cs[0].Type != agent.ContentImage || cs[0].MimeType != "image/png" || cs[0].Data != base64.StdEncoding.EncodeToString([]byte(png)) {
					t.Errorf("image block = %+v", cs[0])
				}
			}},
		{name: "a directory is a listing without what .gitignore leaves out", text: "@dir/",
			want: []agent.Attachment{{Path: "dir/", Size: 2, Dir: true}},
			check: func(t *testing.T, cs []agent.Content) {
				if want := "<directory path=\"dir/\">\na.go\nsub/\n</directory>"; cs[0].Text != want {
					t.Errorf("listing = %q, want %q", cs[0].Text, want)
				}
			}},
		{name: "binary data is not attached", text: "@blob.bin",
			want: []agent.Attachment{{Path: "blob.bin", Size: 3}},
			check: func(t *testing.T, cs []agent.Content) {
				if !strings.Contains(cs[0].Text, "binary file of 3 B") {
					t.Errorf("binary = %q", cs[0].Text)
				}
			}},
		{name: "a mention of nothing is text; each file once", text: "ask @someone about @README.md and @README.md",
			want: []agent.Attachment{{Path: "README.md", Size: 8}}},
		{name: "pasted paths follow the mentions", text: "@README.md", paths: []string{"logo.png"},
			want: []agent.Attachment{{Path: "README.md", Size: 8}, {Path: "logo.png", Size: int64(len(png))}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := Expand(context.Background(), root, tc.text, tc.paths)
			if err != nil {
				t.Fatal(err)
			}
			got := agent.Message{Content: cs}.Attached()
			if len(got) != len(tc.want) {
				t.Fatalf("attached %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("attachment %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
			if tc.check != nil {
				tc.check(t, cs)
			}
		})
	}
}

func TestExpandRefusesWhatCannotBeRead(t *testing.T) {
	root := tree(t, map[string]string{"huge.png": png})
	if err := os.Truncate(filepath.Join(root, "huge.png"), 6<<20); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"gone.png": "cannot attach gone.png: no such file or directory",
		"huge.png": "cannot attach huge.png: the image is 6.3 MB, more than the 5.2 MB the providers accept",
	}
	for path, want := range cases {
		cs, err := Expand(context.Background(), root, "", []string{path})
		if err == nil || err.Error() != want || cs != nil {
			t.Errorf("Expand(%s) = %v, %v; want the error %q", path, cs, err, want)
		}
	}
}

func TestProbeImageAndChip(t *testing.T) {
	root := tree(t, map[string]string{"logo.png": png, "notes.txt": "hello"})
	at, err := ProbeImage(root, "logo.png")
	if err != nil || at != (agent.Attachment{Path: "logo.png", Size: int64(len(png))}) {
		t.Fatalf("ProbeImage(logo.png) = %+v, %v", at, err)
	}
	if abs := filepath.Join(root, "logo.png"); func() error { _, err := ProbeImage("/elsewhere", abs); return err }() != nil {
		t.Errorf("an absolute path is not the workspace's")
	}
	for path, want := range map[string]string{
		"notes.txt": "notes.txt is not a PNG, JPEG, GIF or WebP image",
		"gone.png":  "cannot attach gone.png: no such file or directory",
	} {
		if _, err := ProbeImage(root, path); err == nil || err.Error() != want {
			t.Errorf("ProbeImage(%s) = %v, want %q", path, err, want)
		}
	}
	for a, want := range map[agent.Attachment]string{
		{Path: "README.md", Size: 2100}:     "📎 README.md · 2.1 KB",
		{Path: "dir/", Size: 1, Dir: true}:  "📎 dir/ · 1 entry",
		{Path: "shot.png", Size: 5_100_000}: "📎 shot.png · 5.1 MB",
		{Path: "/tmp/a b.png", Size: 900}:   "📎 a b.png · 900 B",
	} {
		if got := Chip(a); got != want {
			t.Errorf("Chip(%+v) = %q, want %q", a, got, want)
		}
	}
}
