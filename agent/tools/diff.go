package tools

import (
	"fmt"
	"path/filepath"

	"github.com/aymanbagabas/go-udiff"

	"github.com/steer-tui/steer/agent/humanize"
)

const (
	// maxDiffInput is the largest file, before or after, that gets a diff:
	// the diff costs time that grows with the size and the changes.
	maxDiffInput = 1 << 20
	// maxDiffBytes is the most of a diff that a result or a request holds.
	maxDiffBytes = 64 * 1024
	// diffContext is the number of unchanged lines around each change.
	diffContext = 3
)

// unifiedDiff returns the unified diff from before to after of the file at
// path (shown relative to the workspace when it is inside), cut to
// maxDiffBytes; "" when nothing changes.
func unifiedDiff(w workspace, path, before, after string) string {
	if before == after {
		return ""
	}
	if len(before) > maxDiffInput || len(after) > maxDiffInput {
		return fmt.Sprintf("(no diff: the file is larger than %s)", humanize.Bytes(maxDiffInput))
	}
	name := path
	if rel, err := filepath.Rel(w.root, path); err == nil && within(w.root, path) {
		name = filepath.ToSlash(rel)
	}
	d, err := udiff.ToUnified("a/"+name, "b/"+name, before, udiff.Strings(before, after), diffContext)
	if err != nil {
		return fmt.Sprintf("(no diff: %v)", err)
	}
	if len(d) > maxDiffBytes {
		cut := d[:maxDiffBytes]
		for len(cut) > 0 && cut[len(cut)-1] != '\n' {
			cut = cut[:len(cut)-1]
		}
		d = cut + fmt.Sprintf("[diff truncated: %s of %s shown]\n", humanize.Bytes(int64(len(cut))), humanize.Bytes(int64(len(d))))
	}
	return d
}
