package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/steer-tui/steer/agent/humanize"
)

// maxEditBytes is the largest file edit changes (and write diffs against):
// the whole file is held in memory.
const maxEditBytes = 10 << 20

// bom is the UTF-8 byte order mark some editors put first.
const bom = "\uFEFF"

// textFile is a text file as edit sees it: without its byte order mark and
// with "\n" line endings, so that the model's text (which never carries
// either) matches it.
type textFile struct {
	text string      // the content, LF line endings, without BOM
	bom  bool        // the file started with a BOM
	crlf bool        // the file's first line ending was CRLF
	mode fs.FileMode // permission bits, kept by a rewrite
}

// errNotText marks a file edit cannot change as text.
var errNotText = errors.New("not a text file")

// loadText reads the regular text file at path.
func loadText(path string) (textFile, error) {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return textFile{}, err
	case info.IsDir():
		return textFile{}, fmt.Errorf("%s is a directory", path)
	case !info.Mode().IsRegular():
		return textFile{}, fmt.Errorf("%s is %s, not a regular file", path, typeName(info.Mode()))
	case info.Size() > maxEditBytes:
		return textFile{}, fmt.Errorf("%s is %s, more than the %s edit works on; use bash (sed, a script) instead",
			path, humanize.Bytes(info.Size()), humanize.Bytes(maxEditBytes))
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return textFile{}, err
	}
	if looksBinary(raw[:min(len(raw), sniffLen)]) {
		return textFile{}, fmt.Errorf("%s is a binary file: %w", path, errNotText)
	}
	s := string(raw)
	f := textFile{mode: info.Mode().Perm()}
	s, f.bom = strings.CutPrefix(s, bom)
	if i := strings.IndexByte(s, '\n'); i > 0 && s[i-1] == '\r' {
		f.crlf = true
	}
	f.text = toLF(s)
	return f, nil
}

// encode returns text as the file's bytes: its BOM and line endings put
// back.
func (f textFile) encode(text string) []byte {
	if f.crlf {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	if f.bom {
		text = bom + text
	}
	return []byte(text)
}

// toLF turns CRLF and lone CR line endings into LF.
func toLF(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// writeAtomic replaces the file at path with data, or creates it (and its
// missing parent directories), so that a reader never sees half of it: the
// data goes to a temporary file beside it, which is then renamed over it.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".steer-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// lineAt returns the 1-based line number of byte offset i in s.
func lineAt(s string, i int) int {
	return strings.Count(s[:i], "\n") + 1
}

// countLines counts the lines of s, a last line without newline included.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
