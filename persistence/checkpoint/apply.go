package checkpoint

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// journal is a restore under way, written before its first file and
// dropped after its record: Paths go from commit From to commit To. Each
// file is replaced by a rename, so after a crash every path holds either
// its From or its To content, and finishing or rolling back (applying To or
// From again) leaves the tree matching one of the two byte for byte.
type journal struct {
	Session string   `json:"session"`
	From    string   `json:"from"`
	To      string   `json:"to"`
	Paths   []string `json:"paths"`
}

func (s *Store) journalPath() string { return filepath.Join(s.dir, "restore.journal") }

func (s *Store) writeJournal(j journal) error {
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	tmp := s.journalPath() + ".tmp"
	if err := writeSynced(tmp, b, 0o600); err != nil {
		return fmt.Errorf("write the restore journal: %w", err)
	}
	return os.Rename(tmp, s.journalPath())
}

func (s *Store) dropJournal() error {
	if err := os.Remove(s.journalPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// Interrupted is a restore that did not finish (steer died in it).
type Interrupted struct {
	Session string
	Files   int
}

// Interrupted reports a restore cut short, if there is one.
func (s *Store) Interrupted() (Interrupted, bool, error) {
	j, ok, err := s.readJournal()
	if !ok || err != nil {
		return Interrupted{}, false, err
	}
	return Interrupted{Session: j.Session, Files: len(j.Paths)}, true, nil
}

func (s *Store) readJournal() (journal, bool, error) {
	b, err := os.ReadFile(s.journalPath())
	if errors.Is(err, os.ErrNotExist) {
		return journal{}, false, nil
	}
	if err != nil {
		return journal{}, false, err
	}
	var j journal
	if err := json.Unmarshal(b, &j); err != nil {
		return journal{}, false, fmt.Errorf("the restore journal %s is damaged: %w", s.journalPath(), err)
	}
	return j, true, nil
}

// Resume finishes (finish) or rolls back the interrupted restore; without
// one it does nothing.
func (s *Store) Resume(ctx context.Context, finish bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok, err := s.readJournal()
	if !ok || err != nil {
		return err
	}
	target := j.From
	if finish {
		target = j.To
	}
	if err := s.apply(ctx, j.Session, target, j.Paths); err != nil {
		return err
	}
	if !finish {
		return s.dropJournal()
	}
	_, err = s.finish(ctx, j, "")
	return err
}

// entry is one file of a commit's tree.
type entry struct{ mode, blob string }

// apply makes each of paths what commit holds: its content and mode, or
// gone when commit does not have it.
func (s *Store) apply(ctx context.Context, session, commit string, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	g := s.shadow(session)
	// The whole tree rather than paths as arguments: a restore may name
	// more paths than a command line holds.
	out, err := g.run(ctx, nil, "ls-tree", "-r", "-z", commit)
	if err != nil {
		return err
	}
	have := map[string]entry{}
	for _, f := range nulSplit(out) {
		// "<mode> <type> <object>\t<path>"
		meta, path, ok := strings.Cut(f, "\t")
		if fs := strings.Fields(meta); ok && len(fs) == 3 {
			have[path] = entry{mode: fs[0], blob: fs[2]}
		}
	}
	cat, err := startCatFile(ctx, g)
	if err != nil {
		return err
	}
	defer cat.close()
	for _, p := range paths {
		abs := filepath.Join(s.workspace, filepath.FromSlash(p))
		e, ok := have[p]
		if !ok {
			if err := os.Remove(abs); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			continue
		}
		body, err := cat.blob(e.blob)
		if err != nil {
			return fmt.Errorf("read %s of the checkpoint: %w", p, err)
		}
		if err := place(abs, e.mode, body); err != nil {
			return fmt.Errorf("restore %s: %w", p, err)
		}
	}
	return nil
}

// place puts body at path with git mode, replacing what is there by a
// rename so that the path never holds half a file.
func place(path, mode string, body []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(path), ".steer-restore-"+filepath.Base(path))
	_ = os.Remove(tmp)
	switch mode {
	case "120000":
		if err := os.Symlink(string(body), tmp); err != nil {
			return err
		}
	case "100755", "100644":
		perm := os.FileMode(0o644)
		if mode == "100755" {
			perm = 0o755
		}
		if err := writeSynced(tmp, body, perm); err != nil {
			return err
		}
		if err := os.Chmod(tmp, perm); err != nil {
			return err
		}
	default:
		return fmt.Errorf("cannot restore an entry of mode %s", mode)
	}
	if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory now", path)
	}
	return os.Rename(tmp, path)
}

func writeSynced(path string, body []byte, perm os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(body); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// catFile reads blobs through one git cat-file --batch.
type catFile struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startCatFile(ctx context.Context, g shadow) (*catFile, error) {
	cmd := exec.CommandContext(ctx, g.git, "cat-file", "--batch")
	cmd.Dir, cmd.Env = g.workTree, g.env()
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &catFile{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

func (c *catFile) blob(id string) ([]byte, error) {
	if _, err := fmt.Fprintln(c.in, id); err != nil {
		return nil, err
	}
	head, err := c.out.ReadString('\n')
	if err != nil {
		return nil, err
	}
	fs := strings.Fields(head) // "<id> blob <size>"
	if len(fs) != 3 || fs[1] != "blob" {
		return nil, fmt.Errorf("git cat-file: %s", strings.TrimSpace(head))
	}
	n, err := strconv.Atoi(fs[2])
	if err != nil {
		return nil, err
	}
	body := make([]byte, n+1) // and the newline after it
	if _, err := io.ReadFull(c.out, body); err != nil {
		return nil, err
	}
	return bytes.Clone(body[:n]), nil
}

func (c *catFile) close() {
	c.in.Close()
	_ = c.cmd.Wait()
}
