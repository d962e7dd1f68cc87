package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/google/renameio/v2"
)

// AddRule appends text to the kind list of the permissions of the config
// file at path, creating the file, the object and the list as needed; a
// rule the list has already is not added twice. The file keeps its keys and
// their order (it is written back with two-space indentation), and several
// steer processes may add rules at once: each change is made under a lock
// and lands by renaming a complete file over the old one.
func AddRule(path, kind, text string) error {
	if err := checkRule(text, kind); err != nil {
		return err
	}
	return editRules(path, kind, func(list *node) bool {
		for _, n := range list.elems {
			if n.kind == kindString && n.str == text {
				return false
			}
		}
		list.elems = append(list.elems, &node{kind: kindString, str: text})
		return true
	})
}

// RemoveRule takes text out of the kind list of the file at path; it is an
// error when the list does not have it.
func RemoveRule(path, kind, text string) error {
	found := false
	err := editRules(path, kind, func(list *node) bool {
		list.elems = slices.DeleteFunc(list.elems, func(n *node) bool {
			match := n.kind == kindString && n.str == text
			found = found || match
			return match
		})
		return found
	})
	if err == nil && !found {
		return fmt.Errorf("%s: permissions.%s has no rule %q", path, kind, text)
	}
	return err
}

// editRules runs change on the kind list of path's permissions and writes
// the file back when change reports that it changed the list.
func editRules(path, kind string, change func(list *node) bool) error {
	return withDirLock(filepath.Dir(path), func() error {
		mode := fs.FileMode(0o644)
		data, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			data = []byte("{}")
		case err != nil:
			return err
		default:
			if st, err := os.Stat(path); err == nil {
				mode = st.Mode().Perm()
			}
		}
		root, err := parse(path, withoutBOM(data))
		if err != nil {
			return err
		}
		perms, err := member(root, "permissions", kindObject, path, "permissions")
		if err != nil {
			return err
		}
		list, err := member(perms, kind, kindArray, path, "permissions."+kind)
		if err != nil {
			return err
		}
		if !change(list) {
			return nil
		}
		var buf bytes.Buffer
		render(&buf, root, "")
		buf.WriteByte('\n')
		return renameio.WriteFile(path, buf.Bytes(), mode)
	})
}

// member returns the member name of obj, adding an empty one of kind k when
// it is missing; a member of another type is an error naming the file.
func member(obj *node, name string, k kind, file, path string) (*node, error) {
	if n := obj.get(name); n != nil {
		if n.kind != k {
			return nil, &Error{File: file, Line: n.line, Path: path, Msg: "want " + k.String() + ", got " + n.kind.String()}
		}
		return n, nil
	}
	n := &node{kind: k}
	obj.keys = append(obj.keys, field{name: name, val: n})
	return n, nil
}

// withDirLock runs fn holding an exclusive advisory lock on dir (made when
// missing), which orders the steer processes that change files in it
// without leaving a lock file beside the user's config.
func withDirLock(dir string, fn func() error) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := syscall.Flock(int(d.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("lock %s: %w", dir, err)
	}
	return fn()
}

// render writes the tree as indented JSON, keys in their order.
func render(buf *bytes.Buffer, n *node, indent string) {
	switch n.kind {
	case kindNull:
		buf.WriteString("null")
	case kindBool:
		fmt.Fprint(buf, n.b)
	case kindNumber:
		buf.WriteString(n.num.String())
	case kindString:
		s, _ := json.Marshal(n.str)
		buf.Write(s)
	case kindArray:
		if len(n.elems) == 0 {
			buf.WriteString("[]")
			return
		}
		buf.WriteString("[\n")
		for i, e := range n.elems {
			buf.WriteString(indent + "  ")
			render(buf, e, indent+"  ")
			if i < len(n.elems)-1 {
				buf.WriteByte(',')
			}
			buf.WriteByte('\n')
		}
		buf.WriteString(indent + "]")
	case kindObject:
		if len(n.keys) == 0 {
			buf.WriteString("{}")
			return
		}
		buf.WriteString("{\n")
		for i, f := range n.keys {
			k, _ := json.Marshal(f.name)
			buf.WriteString(indent + "  ")
			buf.Write(k)
			buf.WriteString(": ")
			render(buf, f.val, indent+"  ")
			if i < len(n.keys)-1 {
				buf.WriteByte(',')
			}
			buf.WriteByte('\n')
		}
		buf.WriteString(indent + "}")
	}
}
