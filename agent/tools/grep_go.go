package tools

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
)

// maxGrepLineBytes is how much of one line the Go search matches against;
// the rest of a longer line (minified code, data) is not searched.
const maxGrepLineBytes = 1 << 20

// searchGo runs q without ripgrep: it walks the tree as find does
// (.gitignore respected, symbolic links not followed) and matches each text
// file line by line. base is the workspace root, whose .gitignore files
// apply.
func searchGo(ctx context.Context, base string, q grepQuery, out *grepOutput) error {
	if q.isFile {
		_, err := grepFile(ctx, q, q.root, q.displayName(q.root), out)
		return err
	}
	return walk(ctx, base, q.root, func(rel string, d fs.DirEntry) error {
		if !d.Type().IsRegular() || (q.glob != nil && !q.glob.match(rel)) {
			return nil
		}
		more, err := grepFile(ctx, q, filepath.Join(q.root, filepath.FromSlash(rel)), rel, out)
		switch {
		case err != nil:
			return err
		case !more:
			return errStopWalk
		}
		return nil
	})
}

// grepFile reports the lines of the file at path that match q, and their
// context, to out under name. more is false once out wants no more; err is
// set only when ctx ends. Binary and unreadable files are skipped.
func grepFile(ctx context.Context, q grepQuery, path, name string, out *grepOutput) (more bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return true, nil
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64*1024)
	if head, _ := br.Peek(sniffLen); bytes.IndexByte(head, 0) >= 0 {
		return true, nil
	}
	var before []grepLine // the last q.context lines not shown yet
	after := 0            // context lines still to show after a match
	for n := 1; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return false, ctx.Err()
		}
		raw, _, ok, err := readLine(br, maxGrepLineBytes)
		if err != nil || !ok {
			break
		}
		raw = bytes.TrimSuffix(raw, []byte{'\r'})
		switch {
		case q.re.Match(raw):
			for _, l := range before {
				out.contextLine(l.file, l.n, l.text)
			}
			before = before[:0]
			if !out.match(name, n, string(raw)) {
				return false, nil
			}
			after = q.context
		case after > 0:
			out.contextLine(name, n, string(raw))
			after--
		case q.context > 0:
			if len(before) == q.context {
				before = append(before[:0], before[1:]...)
			}
			before = append(before, grepLine{file: name, n: n, text: string(raw)})
		}
	}
	return out.endFile(), ctx.Err()
}
