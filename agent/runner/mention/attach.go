package mention

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/steer-tui/steer/agent"
	"github.com/steer-tui/steer/agent/tools"
)

// MaxTextBytes is the most of a text file an attachment holds; the model
// is told where it was cut and can read the rest with its tools.
const MaxTextBytes = 64 << 10

// MaxListing is the most entries a directory's listing holds.
const MaxListing = 200

// headBytes is how much of a file tells an image or binary data apart.
const headBytes = 512

// Expand reads what a message attaches: each mention in text (Mentions)
// that names a file or directory of the workspace at root, then each of
// paths (pasted images; relative to root or absolute), once each, in that
// order. A mention that names nothing is text ("@someone") and is left
// alone; a path that cannot be read is an error, naming it, and nothing is
// attached.
func Expand(ctx context.Context, root, text string, paths []string) ([]agent.Content, error) {
	seen := map[string]bool{}
	var out []agent.Content
	add := func(rel, abs string) error {
		if seen[abs] {
			return nil
		}
		seen[abs] = true
		c, err := read(ctx, root, rel, abs)
		if err != nil {
			return err
		}
		out = append(out, c)
		return nil
	}
	for _, m := range Mentions(text) {
		rel, abs, ok := resolveMention(root, m)
		if !ok {
			continue
		}
		if err := add(rel, abs); err != nil {
			return nil, err
		}
	}
	for _, p := range paths {
		if err := add(p, resolve(root, p)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// resolve is path as the file system knows it: relative paths are the
// workspace's, "~/" is the home directory.
func resolve(root, path string) string {
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(root, filepath.FromSlash(path))
}

// resolveMention finds the file mention m names: as written, or without
// the punctuation that ends a sentence ("see @main.go.").
func resolveMention(root, m string) (rel, abs string, ok bool) {
	for cand := m; cand != ""; cand = cand[:len(cand)-1] {
		abs := resolve(root, cand)
		if _, err := os.Stat(abs); err == nil {
			return cand, abs, true
		}
		if !strings.ContainsRune(".,;:!?)]}'\"", rune(cand[len(cand)-1])) {
			break
		}
	}
	return "", "", false
}

// read makes the block of one attachment.
func read(ctx context.Context, root, rel, abs string) (agent.Content, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return agent.Content{}, fmt.Errorf("cannot attach %s: %w", rel, unwrapPath(err))
	}
	if fi.IsDir() {
		return listing(ctx, root, rel, abs)
	}
	f, err := os.Open(abs)
	if err != nil {
		return agent.Content{}, fmt.Errorf("cannot attach %s: %w", rel, unwrapPath(err))
	}
	defer f.Close()
	at := agent.Attachment{Path: rel, Size: fi.Size()}
	head := make([]byte, headBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return agent.Content{}, fmt.Errorf("cannot attach %s: %w", rel, unwrapPath(err))
	}
	head = head[:n]
	if mime := tools.ImageType(head); mime != "" {
		return image(f, head, at, mime)
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return agent.Content{Type: agent.ContentText, Attached: at,
			Text: fmt.Sprintf("<file path=%q>\n[a binary file of %s: its content is not attached]\n</file>", rel, Size(at.Size))}, nil
	}
	return text(f, head, at)
}

// image reads an image whole: a cut image is no image.
func image(f io.Reader, head []byte, at agent.Attachment, mime string) (agent.Content, error) {
	if at.Size > tools.MaxImageBytes {
		return agent.Content{}, fmt.Errorf("cannot attach %s: the image is %s, more than the %s the providers accept",
			at.Path, Size(at.Size), Size(tools.MaxImageBytes))
	}
	rest, err := io.ReadAll(io.LimitReader(f, tools.MaxImageBytes))
	if err != nil {
		return agent.Content{}, fmt.Errorf("cannot attach %s: %w", at.Path, unwrapPath(err))
	}
	data := append(head, rest...)
	return agent.Content{Type: agent.ContentImage, MimeType: mime, Attached: at,
		Data: base64.StdEncoding.EncodeToString(data)}, nil
}

// text reads at most MaxTextBytes of a text file, cut at a line's end when
// one is near, with a note saying so.
func text(f io.Reader, head []byte, at agent.Attachment) (agent.Content, error) {
	rest, err := io.ReadAll(io.LimitReader(f, MaxTextBytes+1-int64(len(head))))
	if err != nil {
		return agent.Content{}, fmt.Errorf("cannot attach %s: %w", at.Path, unwrapPath(err))
	}
	body := append(head, rest...)
	var note string
	if len(body) > MaxTextBytes {
		body = cut(body[:MaxTextBytes])
		note = fmt.Sprintf("\n[cut: the first %s of %s are attached; read the file for the rest]", Size(int64(len(body))), Size(at.Size))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<file path=%q>\n", at.Path)
	b.Write(bytes.ToValidUTF8(body, []byte("\uFFFD")))
	if len(body) > 0 && body[len(body)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString(strings.TrimPrefix(note, "\n"))
	if note != "" {
		b.WriteByte('\n')
	}
	b.WriteString("</file>")
	return agent.Content{Type: agent.ContentText, Text: b.String(), Attached: at}, nil
}

// cut ends body at its last line's end in the final quarter, else at a
// character boundary.
func cut(body []byte) []byte {
	if i := bytes.LastIndexByte(body, '\n'); i >= len(body)*3/4 {
		return body[:i+1]
	}
	for range utf8.UTFMax - 1 {
		if r, size := utf8.DecodeLastRune(body); r != utf8.RuneError || size != 1 {
			break
		}
		body = body[:len(body)-1]
	}
	return body
}

// listing is a directory's entries as the tools see them (.gitignore
// respected), directories marked with "/", at most MaxListing.
func listing(ctx context.Context, root, rel, abs string) (agent.Content, error) {
	var names []string
	total := 0
	err := tools.Walk(ctx, root, abs, func(name string, d fs.DirEntry) error {
		total++
		if len(names) < MaxListing {
			if d.IsDir() {
				name += "/"
			}
			names = append(names, name)
		}
		if d.IsDir() {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return agent.Content{}, fmt.Errorf("cannot attach %s: %w", rel, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<directory path=%q>\n", strings.TrimSuffix(rel, "/")+"/")
	for _, n := range names {
		b.WriteString(n + "\n")
	}
	if total > len(names) {
		fmt.Fprintf(&b, "[and %d more entries]\n", total-len(names))
	}
	b.WriteString("</directory>")
	return agent.Content{Type: agent.ContentText, Text: b.String(),
		Attached: agent.Attachment{Path: rel, Size: int64(total), Dir: true}}, nil
}

// unwrapPath drops the absolute path an *fs.PathError repeats: the error
// names the path as the user wrote it.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Size words n bytes as the chips show it: "900 B", "2.1 KB", "5.1 MB".
func Size(n int64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
