package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ExportedFile is what ExportFile wrote.
type ExportedFile struct {
	Path     string
	Entries  int
	Redacted int
}

// ExportFile writes the current session to file (relative to its
// workspace; "" is steer-<id>.html there) as HTML, or Markdown for *.md and
// JSONL for *.jsonl, redacting Options.ExportSecrets and the token shapes.
// An existing file is never overwritten: it is refused and nothing is
// written.
func (r *Runtime) ExportFile(ctx context.Context, file string) (ExportedFile, error) {
	if r.store == nil {
		return ExportedFile{}, errors.New("export needs the state directory's database")
	}
	if err := r.writes.flush(ctx); err != nil {
		return ExportedFile{}, err
	}
	id, created := r.row()
	if !created {
		return ExportedFile{}, errors.New("nothing to export yet: the session has no messages")
	}
	if file == "" {
		file = "steer-" + id + ".html"
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(r.opts.Workspace, file)
	}
	format := "html"
	switch strings.ToLower(filepath.Ext(file)) {
	case ".md":
		format = "md"
	case ".jsonl":
		format = "jsonl"
	}
	s, err := exportOf(ctx, r.store, id)
	if err != nil {
		return ExportedFile{}, err
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return ExportedFile{}, fmt.Errorf("%s exists: not overwritten, nothing written", file)
	}
	if err != nil {
		return ExportedFile{}, err
	}
	n, err := WriteExport(f, s, format, r.opts.ExportSecrets)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(file) // ours, half written
		return ExportedFile{}, fmt.Errorf("export to %s: %w", file, err)
	}
	return ExportedFile{Path: file, Entries: len(s.Entries), Redacted: n}, nil
}

// ExportFile writes the current session to file (see Runtime.ExportFile).
func (h *Host) ExportFile(ctx context.Context, file string) (ExportedFile, error) {
	return h.Current().ExportFile(ctx, file)
}
