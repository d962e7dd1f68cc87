package mention

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools"
)

// Chip is how front ends show an attachment: "📎 README.md · 2.1 KB", a
// directory's with its number of entries, a file outside the workspace (a
// pasted screenshot) by its name alone.
func Chip(a agent.Attachment) string {
	if filepath.IsAbs(a.Path) {
		a.Path = filepath.Base(a.Path)
	}
	if a.Dir {
		word := "entries"
		if a.Size == 1 {
			word = "entry"
		}
		return fmt.Sprintf("📎 %s · %d %s", a.Path, a.Size, word)
	}
	if a.Size == 0 { // not read yet: an unsent image given back
		return "📎 " + a.Path
	}
	return fmt.Sprintf("📎 %s · %s", a.Path, Size(a.Size))
}

// ProbeImage checks that path (relative to root, or absolute) is an image
// the providers take, for the editor's chip; Expand reads it when the
// message is sent.
func ProbeImage(root, path string) (agent.Attachment, error) {
	f, err := os.Open(resolve(root, path))
	if err != nil {
		return agent.Attachment{}, fmt.Errorf("cannot attach %s: %w", path, unwrapPath(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.IsDir() {
		return agent.Attachment{}, fmt.Errorf("cannot attach %s: not a file", path)
	}
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	if tools.ImageType(head[:n]) == "" {
		return agent.Attachment{}, fmt.Errorf("%s is not a PNG, JPEG, GIF or WebP image", path)
	}
	if fi.Size() > tools.MaxImageBytes {
		return agent.Attachment{}, fmt.Errorf("cannot attach %s: the image is %s, more than the %s the providers accept",
			path, Size(fi.Size()), Size(tools.MaxImageBytes))
	}
	return agent.Attachment{Path: path, Size: fi.Size()}, nil
}
