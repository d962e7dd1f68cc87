package checkpoint

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"time"
)

// The author and committer of every snapshot.
const (
	committerName  = "steer"
	committerEmail = "steer@localhost"
)

// commitObject is the body of a commit of tree, with parent unless it is
// empty, made at when with message msg: what git commit-tree stores.
func commitObject(tree, parent string, when time.Time, msg []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "tree %s\n", tree)
	if parent != "" {
		fmt.Fprintf(&b, "parent %s\n", parent)
	}
	stamp := fmt.Sprintf("%s <%s> %d +0000", committerName, committerEmail, when.Unix())
	fmt.Fprintf(&b, "author %s\ncommitter %s\n\n", stamp, stamp)
	b.Write(msg)
	return b.Bytes()
}

// errBadID says an object id is not one of the repository's.
var errBadID = errors.New("not an object id")

// writeCommit stores the commit of tree (and parent) with msg in the shadow
// repository as a loose object, as git commit-tree would, and returns its
// id. It is written here rather than by git because every snapshot waits
// on it, and a git run costs milliseconds of start-up for one small file.
// The hash is the one of the repository's ids, told by tree's length.
func (g shadow) writeCommit(tree, parent string, when time.Time, msg []byte) (string, error) {
	h := idHash(len(tree))
	if h == nil || !isID(tree, len(tree)) || parent != "" && !isID(parent, len(tree)) {
		return "", fmt.Errorf("commit of %q on %q: %w", tree, parent, errBadID)
	}
	body := commitObject(tree, parent, when, msg)
	obj := append(fmt.Appendf(nil, "commit %d\x00", len(body)), body...)
	h.Write(obj)
	id := hex.EncodeToString(h.Sum(nil))
	path := filepath.Join(g.dir, "objects", id[:2], id[2:])
	if _, err := os.Stat(path); err == nil {
		return id, nil // the same commit, made before
	}
	if err := writeObject(path, obj); err != nil {
		return "", fmt.Errorf("write commit %s: %w", id, err)
	}
	return id, nil
}

// idHash is the hash of the ids n hex digits long: SHA-1 or SHA-256.
func idHash(n int) hash.Hash {
	switch n {
	case 2 * sha1.Size:
		return sha1.New()
	case 2 * sha256.Size:
		return sha256.New()
	}
	return nil
}

func isID(s string, n int) bool {
	_, err := hex.DecodeString(s)
	return err == nil && len(s) == n
}

// writeObject stores obj compressed at path, read-only as git keeps its
// objects, by a rename so that the path never holds part of it.
func writeObject(path string, obj []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "tmp_obj_")
	if err != nil {
		return err
	}
	z := zlib.NewWriter(f)
	_, err = z.Write(obj)
	if cerr := z.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o444)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
